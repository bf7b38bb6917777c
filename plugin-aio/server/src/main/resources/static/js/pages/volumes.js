// Volumes: the next-start decision (requested + source, effective, reason), the override, cache mode, allocation,
// and a "takes effect at next start" marker for running VMs whose disks differ from what the next start would give.
import { del, errorText, get, ioModeValues, put } from '../api.js';
import { bytes, h, labelledSelect, modeBadge, short, sourceText } from '../dom.js';

const filters = { ps: '', vm: '', mode: '' };

export async function render(ctx) {
  const [vols, previews, vms, ps] = await Promise.all([
    get('/volumes'), get('/io-mode/previews'), get('/vm-instances'),
    ctx.admin ? get('/primary-storage') : Promise.resolve({ inventories: [] }),
  ]);
  const settable = await ioModeValues(vols.inventories.length ? vols.inventories[0].uuid : null);
  const preview = new Map(previews.inventories.map(p => [p.volumeUuid, p]));
  const vmBy = new Map(vms.inventories.map(v => [v.uuid, v]));
  const psBy = new Map(ps.inventories.map(p => [p.uuid, p]));
  const volumes = vols.inventories.map(v => ({ v, d: preview.get(v.uuid), vm: vmBy.get(v.vmInstanceUuid), ps: psBy.get(v.primaryStorageUuid) }));

  const psName = uuid => (psBy.get(uuid) ? psBy.get(uuid).name : 'storage ' + short(uuid));
  const psIds = [...new Set(volumes.map(x => x.v.primaryStorageUuid))];
  const effOf = x => (!x.d ? '' : x.d.refused ? 'refused' : x.d.effective);
  const modes = [...new Set(volumes.map(effOf).filter(Boolean))].sort();
  for (const k of Object.keys(filters)) {
    const known = k === 'ps' ? psIds : k === 'vm' ? [...vmBy.keys(), 'none'] : modes;
    if (filters[k] && !known.includes(filters[k])) filters[k] = '';
  }

  const tbody = h('tbody');
  const count = h('p', { class: 'muted', id: 'volume-count', role: 'status' });
  const draw = () => {
    const shown = volumes.filter(x =>
      (!filters.ps || x.v.primaryStorageUuid === filters.ps)
      && (!filters.vm || (filters.vm === 'none' ? !x.v.vmInstanceUuid : x.v.vmInstanceUuid === filters.vm))
      && (!filters.mode || effOf(x) === filters.mode));
    tbody.replaceChildren(...shown.map(x => row(ctx, x, psName, settable)));
    count.textContent = `${shown.length} of ${volumes.length} volumes shown.`;
  };

  const f1 = labelledSelect('Primary storage', [['', 'all'], ...psIds.map(u => [u, psName(u)])], filters.ps, { id: 'filter-ps' });
  const f2 = labelledSelect('VM', [['', 'all'], ...vms.inventories.map(v => [v.uuid, `${v.name} (${v.state})`]), ['none', 'not attached']], filters.vm, { id: 'filter-vm' });
  const f3 = labelledSelect('Effective mode', [['', 'all'], ...modes.map(m => [m, m])], filters.mode, { id: 'filter-mode' });
  [[f1, 'ps'], [f2, 'vm'], [f3, 'mode']].forEach(([f, k]) => f.select.addEventListener('change', () => { filters[k] = f.select.value; draw(); }));
  draw();

  if (!volumes.length) return h('p', { class: 'muted', id: 'no-volumes' }, 'No volumes are visible to this account.');
  return h('div', null,
    h('p', { class: 'muted intro' }, 'The effective mode is what the next start or attach would use, with the reason. '
      + 'An override on a volume wins over its primary storage and the global setting.'),
    h('div', { class: 'filters', role: 'group', 'aria-label': 'Filters' },
      h('div', { class: 'field' }, f1.label, f1.select), h('div', { class: 'field' }, f2.label, f2.select), h('div', { class: 'field' }, f3.label, f3.select)),
    count,
    h('table', { class: 'data', id: 'volume-table' },
      h('caption', { class: 'sr-only' }, 'Volumes'),
      h('thead', null, h('tr', null, ['Volume', 'Requested', 'Effective at next start', 'Reason', 'Override', 'Cache', 'Preallocation', 'Allocated / size']
        .map(t => h('th', { scope: 'col' }, t)))),
      tbody));
}

function row(ctx, { v, d, vm }, psName, modes) {
  const ownOverride = d && d.source === 'VolumeVO' ? d.requested : 'inherit';
  const { label, select } = labelledSelect(`vm.ioMode override for ${v.name}`,
    [['inherit', 'inherit'], ...modes.map(m => [m, m])], ownOverride, { 'data-override': v.uuid }, true);
  const apply = h('button', { type: 'button', class: 'small', disabled: true, 'data-apply': v.uuid }, 'Apply');
  const problem = h('div', { class: 'msg error inline-msg', 'data-row-error': v.uuid, hidden: true });
  select.addEventListener('change', () => { apply.disabled = select.value === ownOverride; });
  apply.addEventListener('click', async () => {
    ctx.clear();
    problem.hidden = true;
    apply.disabled = true;
    const value = select.value;
    try {
      if (value === 'inherit') await del(`/resource-configurations/kvm/vm.ioMode/${v.uuid}`);
      else await put(`/resource-configurations/kvm/vm.ioMode/${v.uuid}/actions`, { updateResourceConfig: { value } });
    } catch (e) {
      select.value = ownOverride;
      apply.disabled = true;
      problem.textContent = errorText(e);
      problem.hidden = false;
      ctx.fail(`${v.name}: ${errorText(e)}`);
      return;
    }
    await ctx.reload();
    ctx.status(value === 'inherit' ? `${v.name} now inherits vm.ioMode.` : `${v.name} now requests ${value}.`);
    const again = document.querySelector(`[data-override="${v.uuid}"]`);
    if (again) again.focus();
  });

  // The stored decision is what the running VM's disk got at its last start; the preview is what the next start gives.
  const stored = v.ioModeDecision;
  const applied = stored ? (stored.appliedIo || stored.effective) : null;
  const next = d ? (d.refused ? 'refused' : d.effective) : null;
  const running = vm && vm.state === 'Running';
  const pending = running && stored && next && applied !== next && !(applied === null && next === 'not-applicable');
  // What the live domain has (read back by the server's tracker), next to the decision for the next start.
  const live = v.running;
  const liveIo = live ? (live.io || 'threads') : null;
  const liveDiffers = live && next && next !== 'not-applicable' && next !== 'refused' && liveIo !== next;

  return h('tr', { 'data-volume': v.uuid, class: pending ? 'pending' : null },
    h('td', { 'data-label': 'Volume' },
      h('strong', null, v.name),
      h('div', { class: 'muted' }, vm ? `VM ${vm.name} · ${vm.state}` : 'not attached'),
      h('div', { class: 'muted' }, psName(v.primaryStorageUuid), ' · ', v.format)),
    h('td', { 'data-label': 'Requested', 'data-requested': v.uuid },
      d ? modeBadge(d.requested) : '—', d ? h('div', { class: 'muted' }, 'from ', sourceText(d.source)) : null),
    h('td', { 'data-label': 'Effective', 'data-effective': v.uuid },
      d ? modeBadge(d.effective, d.refused) : '—',
      pending ? h('div', { class: 'marker', 'data-pending': v.uuid },
        'takes effect at next start', h('span', { class: 'muted' }, ` (running now: ${applied})`)) : null,
      running && stored && !pending && !live ? h('div', { class: 'muted' }, 'running with this mode') : null,
      live ? h('div', { class: liveDiffers ? 'marker' : 'muted', 'data-running': v.uuid, 'data-running-differs': liveDiffers ? 'true' : 'false',
        title: `read from the live domain on host ${live.hostUuid} since ${live.since}` },
        `live domain: io=${live.io || 'default (threads)'}, cache=${live.cache || 'default'}`,
        liveDiffers ? ' · differs from the next start' : '') : null),
    h('td', { 'data-label': 'Reason', class: 'reason', 'data-reason': v.uuid }, d ? d.reason : 'no decision'),
    h('td', { 'data-label': 'Override' }, h('div', { class: 'inline' }, label, select, apply), problem),
    h('td', { 'data-label': 'Cache', 'data-cache': v.uuid }, v.cacheMode || '—'),
    h('td', { 'data-label': 'Preallocation' }, v.preallocation || 'none'),
    h('td', { 'data-label': 'Allocated / size' }, allocation(v)));
}

function allocation(v) {
  if (v.actualSize === null || v.actualSize === undefined) return h('span', null, `unknown / ${bytes(v.size)}`);
  const pct = v.size ? Math.round((v.actualSize / v.size) * 100) : 0;
  return h('span', { title: `${v.actualSize} of ${v.size} bytes` }, h('span', { class: 'nowrap' }, `${bytes(v.actualSize)} / ${bytes(v.size)}`),
    h('div', { class: 'muted' }, `${pct}% allocated`));
}
