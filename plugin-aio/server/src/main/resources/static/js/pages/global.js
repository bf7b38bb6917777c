// Global settings: each kvm config with its description and default; a change shows its impact first.
import { concreteModes, get, put } from '../api.js';
import { h, labelledSelect, modeBadge } from '../dom.js';

const ORDER = ['vm.ioMode', 'vm.ioMode.onUnsatisfied', 'vm.ioMode.native.allowFalloc', 'vm.cacheMode'];
const TITLES = {
  'vm.ioMode': 'Disk io mode',
  'vm.ioMode.onUnsatisfied': 'When the io mode cannot be used',
  'vm.ioMode.native.allowFalloc': 'Count falloc images as non-sparse for native',
  'vm.cacheMode': 'Disk cache mode',
};

export async function render(ctx) {
  const r = await get('/global-configurations');
  const configs = r.inventories.slice().sort((a, b) => rank(a) - rank(b));
  return h('div', { class: 'cards' },
    h('p', { class: 'muted intro' }, 'These apply to every volume that has no override on itself or on its primary storage. '
      + 'A change takes effect at each VM\'s next start or attach; running VMs keep their disks as they are.'),
    configs.map(c => card(ctx, c, concreteModes(configs.find(x => x.category === 'kvm' && x.name === 'vm.ioMode')))));
}

function rank(c) {
  const i = ORDER.indexOf(c.name);
  return i < 0 ? ORDER.length : i;
}

function card(ctx, c, modes) {
  const key = `${c.category}/${c.name}`;
  const { label, select } = labelledSelect('New value', c.validValues, c.value, { name: key, 'data-config': key });
  const review = h('button', { type: 'button', disabled: true, 'data-review': key }, 'Review change…');
  select.addEventListener('change', () => { review.disabled = select.value === c.value; });
  review.addEventListener('click', () => reviewChange(ctx, c, select, review, modes));
  const binds = c.bindResourceTypes && c.bindResourceTypes.length
    ? 'Can be overridden per ' + c.bindResourceTypes.map(t => t === 'VolumeVO' ? 'volume' : t === 'PrimaryStorageVO' ? 'primary storage' : t).join(' and ') + '.'
    : 'Global only.';
  return h('section', { class: 'card config', 'aria-labelledby': 'cfg-' + c.name.replace(/\W/g, '-'), 'data-config-card': key },
    h('h2', { id: 'cfg-' + c.name.replace(/\W/g, '-') }, TITLES[c.name] || c.name, ' ', h('code', null, key)),
    h('p', null, c.description),
    h('dl', { class: 'facts' },
      h('div', null, h('dt', null, 'Current value'), h('dd', { 'data-current': key }, h('strong', null, c.value))),
      h('div', null, h('dt', null, 'Default'), h('dd', { 'data-default': key }, c.defaultValue)),
      h('div', null, h('dt', null, 'Scope'), h('dd', null, binds))),
    h('div', { class: 'row' }, h('div', { class: 'field' }, label, select), review));
}

async function reviewChange(ctx, c, select, review, modes) {
  const value = select.value;
  ctx.clear();
  review.disabled = true;
  let impact;
  try {
    impact = (await get(`/io-mode/impact?category=${encodeURIComponent(c.category)}&name=${encodeURIComponent(c.name)}&value=${encodeURIComponent(value)}`)).inventory;
  } catch (e) {
    ctx.error(e);
    review.disabled = false;
    return;
  }
  const confirmed = await askImpact(c, impact, modes);
  if (!confirmed) {
    select.value = c.value;
    ctx.status(`Not changed: ${c.category}/${c.name} stays ${c.value}.`);
    review.focus();
    return;
  }
  try {
    await put(`/global-configurations/${encodeURIComponent(c.category)}/${encodeURIComponent(c.name)}/actions`,
      { updateGlobalConfig: { value } });
  } catch (e) {
    select.value = c.value;
    ctx.error(e);
    review.disabled = true;
    return;
  }
  await ctx.reload();
  ctx.status(`${c.category}/${c.name} is now ${value}. Volumes get it at their VM's next start.`);
  const again = document.querySelector(`[data-review="${CSS.escape(`${c.category}/${c.name}`)}"]`);
  if (again) again.closest('section').querySelector('select').focus();
}

/** Shows the impact in a modal dialog; resolves true on Confirm. */
function askImpact(c, impact, modes) {
  const dialog = document.getElementById('impact-dialog');
  document.getElementById('impact-title').textContent = `Change ${c.category}/${c.name} from ${impact.currentValue} to ${impact.proposedValue}?`;
  document.getElementById('impact-body').replaceChildren(impactView(impact, modes));
  dialog.returnValue = '';
  return new Promise(resolve => {
    dialog.addEventListener('close', () => resolve(dialog.returnValue === 'confirm'), { once: true });
    dialog.showModal();
    document.getElementById('impact-cancel').focus();
  });
}

export function impactView(i, declared) {
  const modes = new Set([...Object.keys(i.current.byEffective), ...Object.keys(i.proposed.byEffective)]);
  const order = [...declared, 'not-applicable'];
  const pos = k => (order.indexOf(k) < 0 ? order.length : order.indexOf(k));
  const rows = [...modes].sort((a, b) => pos(a) - pos(b));
  const n = (t, k) => t.byEffective[k] || 0;
  const changeCell = (a, b) => h('td', { class: b > a ? 'up' : b < a ? 'down' : 'same' }, b === a ? 'no change' : (b > a ? '+' : '') + (b - a));
  const table = h('table', { class: 'impact' },
    h('caption', null, 'Volumes per effective mode at their next start'),
    h('thead', null, h('tr', null, h('th', { scope: 'col' }, 'Effective mode'), h('th', { scope: 'col' }, 'Now'),
      h('th', { scope: 'col' }, 'After'), h('th', { scope: 'col' }, 'Change'))),
    h('tbody', null,
      rows.map(k => h('tr', { 'data-mode': k }, h('th', { scope: 'row' }, modeBadge(k)),
        h('td', { 'data-now': k }, n(i.current, k)), h('td', { 'data-after': k }, n(i.proposed, k)), changeCell(n(i.current, k), n(i.proposed, k)))),
      h('tr', { 'data-mode': 'fallbacks' }, h('th', { scope: 'row' }, 'fall back to another mode'),
        h('td', null, i.current.fallbacks), h('td', { 'data-after': 'fallbacks' }, i.proposed.fallbacks), changeCell(i.current.fallbacks, i.proposed.fallbacks)),
      h('tr', { 'data-mode': 'refused' }, h('th', { scope: 'row' }, 'VM start refused'),
        h('td', null, i.current.refused), h('td', { 'data-after': 'refused' }, i.proposed.refused), changeCell(i.current.refused, i.proposed.refused))));
  const reasons = i.proposed.reasons || [];
  return h('div', { class: 'impact-view' },
    h('p', { class: 'summary', 'data-summary': '' },
      i.changed === 0
        ? `No volume's effective mode changes (${i.volumes} volumes checked).`
        : `${i.changed} of ${i.volumes} volumes would change mode at their next start.`),
    table,
    h('h3', null, 'Why volumes would not get the requested mode'),
    reasons.length
      ? h('ul', { class: 'reasons' }, reasons.map(r => h('li', { 'data-reason': r.check },
        h('strong', null, `${r.volumes} volume${r.volumes === 1 ? '' : 's'}: ${r.check}`), ` (${r.mode}) — `, r.example)))
      : h('p', { class: 'muted', 'data-reason-none': '' }, 'Every volume gets what it requests.'),
    h('p', { class: 'muted' }, 'Running VMs keep their current disks until they are stopped and started again.'));
}
