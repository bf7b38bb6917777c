// Primary storage (admin): type, kind, the vm.ioMode override, volume count and the effective modes of its volumes.
import { del, get, ioModeConfig, put } from '../api.js';
import { h, labelledSelect, modeBadge, modeCounts } from '../dom.js';

export async function render(ctx) {
  const [ps, vols, previews] = await Promise.all([get('/primary-storage'), get('/volumes'), get('/io-mode/previews')]);
  const storages = ps.inventories;
  const overrides = await Promise.all(storages.map(p =>
    get(`/resource-configurations/${p.uuid}/kvm/vm.ioMode`).then(r => {
      const first = r.effectiveConfigs && r.effectiveConfigs[0];
      return first && first.resourceType === 'PrimaryStorageVO' ? first.value : null;
    })));
  const ioMode = await ioModeConfig();
  const global = ioMode.value;
  const preview = new Map(previews.inventories.map(p => [p.volumeUuid, p]));
  const counts = new Map(storages.map(p => [p.uuid, {}]));
  for (const v of vols.inventories) {
    const d = preview.get(v.uuid);
    const c = counts.get(v.primaryStorageUuid);
    if (!c || !d) continue;
    const k = d.refused ? 'refused' : d.effective;
    c[k] = (c[k] || 0) + 1;
  }
  if (!storages.length) return h('p', { class: 'muted' }, 'No primary storage yet.');
  return h('div', null,
    h('p', { class: 'muted intro' }, `An override here applies to every volume on that storage without its own override; `
      + `the others follow the global setting (now `, h('strong', null, global), '). Changes take effect at each VM\'s next start.'),
    h('table', { class: 'data', id: 'storage-table' },
      h('caption', { class: 'sr-only' }, 'Primary storage'),
      h('thead', null, h('tr', null, ['Name', 'Type', 'Kind', 'vm.ioMode override', 'Volumes', 'Effective modes at next start']
        .map(t => h('th', { scope: 'col' }, t)))),
      h('tbody', null, storages.map((p, i) => row(ctx, p, overrides[i], counts.get(p.uuid), global, ioMode.validValues)))));
}

function row(ctx, p, override, counts, global, modes) {
  const { label, select } = labelledSelect(`vm.ioMode override for ${p.name}`,
    [['inherit', `inherit (global: ${global})`], ...modes.map(m => [m, m])], override || 'inherit',
    { 'data-override': p.uuid }, true);
  const apply = h('button', { type: 'button', class: 'small', disabled: true, 'data-apply': p.uuid }, 'Apply');
  const current = override || 'inherit';
  select.addEventListener('change', () => { apply.disabled = select.value === current; });
  apply.addEventListener('click', async () => {
    ctx.clear();
    apply.disabled = true;
    const value = select.value;
    try {
      if (value === 'inherit') await del(`/resource-configurations/kvm/vm.ioMode/${p.uuid}`);
      else await put(`/resource-configurations/kvm/vm.ioMode/${p.uuid}/actions`, { updateResourceConfig: { value } });
    } catch (e) {
      select.value = current;
      ctx.error(e);
      return;
    }
    await ctx.reload();
    ctx.status(value === 'inherit'
      ? `${p.name} now inherits vm.ioMode from the global setting.`
      : `${p.name} now requests ${value} for its volumes without their own override.`);
    const again = document.querySelector(`[data-override="${p.uuid}"]`);
    if (again) again.focus();
  });
  return h('tr', { 'data-ps': p.uuid },
    h('td', { 'data-label': 'Name' }, h('strong', null, p.name), h('div', { class: 'muted mono', title: p.url }, p.url)),
    h('td', { 'data-label': 'Type' }, p.type),
    h('td', { 'data-label': 'Kind' }, p.storageKind || 'unknown',
      p.storageKind === 'network' ? h('div', { class: 'muted' }, 'takes no io attribute') : null),
    h('td', { 'data-label': 'vm.ioMode override' }, h('div', { class: 'inline' }, label, select, apply),
      override ? h('div', { class: 'muted' }, 'overridden: ', modeBadge(override)) : h('div', { class: 'muted' }, 'inherits the global setting')),
    h('td', { 'data-label': 'Volumes', 'data-count': p.uuid }, String(p.volumeCount)),
    h('td', { 'data-label': 'Effective modes', 'data-effective': p.uuid }, modeCounts(counts || {})),
  );
}

