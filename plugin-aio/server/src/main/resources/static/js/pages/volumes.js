// Volumes: the next-start decision (requested + source, effective, reason), the override, cache mode, allocation,
// and a "takes effect at next start" marker for running VMs whose disks differ from what the next start would give.
// The observed workload (sampled from the running disk's block counters) shows per volume, and an auto decision that
// weighed the host's benchmark by it says which workload it optimised for.
// One page at a time: the storage and VM filters, the page and its size go to the server's query API (q=, limit,
// start, replyWithCount), so a page costs the same with 100 or 100,000 volumes; the effective mode is computed per
// volume, so that filter applies to the page shown.
import { del, errorText, get, ioModeValues, put, session } from '../api.js';
import { bytes, h, labelledSelect, modeBadge, short, sourceText } from '../dom.js';

const PAGE_SIZES = [10, 25, 50, 100];
const FIRST_VIEW = { ps: '', vm: '', mode: '', start: 0, limit: 25, focus: null, session: null };
const view = { ...FIRST_VIEW };

function volumeQuery() {
  const qs = new URLSearchParams({ limit: view.limit, start: view.start, replyWithCount: 'true', sort: '+createDate' });
  if (view.ps) qs.append('q', `primaryStorageUuid=${view.ps}`);
  if (view.vm) qs.append('q', view.vm === 'none' ? 'vmInstanceUuid=null' : `vmInstanceUuid=${view.vm}`);
  return '/volumes?' + qs;
}

export async function render(ctx) {
  const who = session() ? session().uuid : null;
  if (view.session !== who) Object.assign(view, FIRST_VIEW, { session: who }); // another login starts from the first page
  let vols = await get(volumeQuery());
  if (!vols.inventories.length && view.start > 0) { // the last page emptied (filters changed elsewhere): show the last one left
    view.start = Math.max(0, Math.floor((vols.total - 1) / view.limit) * view.limit);
    vols = await get(volumeQuery());
  }
  const uuids = vols.inventories.map(v => v.uuid);
  const [previews, vms, ps] = await Promise.all([
    uuids.length ? get('/io-mode/previews?' + uuids.map(u => 'volumeUuid=' + u).join('&')) : Promise.resolve({ inventories: [] }),
    get('/vm-instances?fields=uuid,name,state&sort=%2Bname&limit=1000'),
    ctx.admin ? get('/primary-storage?fields=uuid,name&sort=%2Bname&limit=1000') : Promise.resolve({ inventories: [] }),
  ]);
  const settable = await ioModeValues(uuids.length ? uuids[0] : null);
  const preview = new Map(previews.inventories.map(p => [p.volumeUuid, p]));
  const vmBy = new Map(vms.inventories.map(v => [v.uuid, v]));
  const psBy = new Map(ps.inventories.map(p => [p.uuid, p]));
  const volumes = vols.inventories.map(v => ({ v, d: preview.get(v.uuid), vm: vmBy.get(v.vmInstanceUuid), ps: psBy.get(v.primaryStorageUuid) }));

  const psName = uuid => (psBy.get(uuid) ? psBy.get(uuid).name : 'storage ' + short(uuid));
  // an admin picks from every storage; a tenant (who cannot list storage) from those of the page and the one chosen
  const psIds = ctx.admin ? [...psBy.keys()] : [...new Set([...volumes.map(x => x.v.primaryStorageUuid), view.ps].filter(Boolean))];
  const effOf = x => (!x.d ? '' : x.d.refused ? 'refused' : x.d.effective);
  const modes = [...new Set(volumes.map(effOf).filter(Boolean))].sort();
  if (view.mode && !modes.includes(view.mode)) view.mode = '';

  const tbody = h('tbody');
  const count = h('p', { class: 'muted', id: 'volume-count', role: 'status' });
  const first = vols.total ? view.start + 1 : 0;
  const last = view.start + volumes.length;
  const draw = () => {
    const shown = volumes.filter(x => !view.mode || effOf(x) === view.mode);
    tbody.replaceChildren(...shown.map(x => row(ctx, x, psName, settable)));
    count.textContent = `Volumes ${first}–${last} of ${vols.total}`
      + (view.ps || view.vm ? ' matching the filters' : '')
      + (view.mode ? `; ${shown.length} of this page run ${view.mode} at next start.` : '.');
  };
  // a server-side filter or the page changes: fetch again, then give the control its focus back
  const refetch = id => { view.focus = id; ctx.reload(); };

  const f1 = labelledSelect('Primary storage', [['', 'all'], ...psIds.map(u => [u, psName(u)])], view.ps, { id: 'filter-ps' });
  const f2 = labelledSelect('VM', [['', 'all'], ...vms.inventories.map(v => [v.uuid, `${v.name} (${v.state})`]), ['none', 'not attached']], view.vm, { id: 'filter-vm' });
  const f3 = labelledSelect('Effective mode (this page)', [['', 'all'], ...modes.map(m => [m, m])], view.mode, { id: 'filter-mode' });
  const f4 = labelledSelect('Per page', PAGE_SIZES.map(n => [String(n), String(n)]), String(view.limit), { id: 'page-size' });
  f1.select.addEventListener('change', () => { view.ps = f1.select.value; view.start = 0; refetch('filter-ps'); });
  f2.select.addEventListener('change', () => { view.vm = f2.select.value; view.start = 0; refetch('filter-vm'); });
  f3.select.addEventListener('change', () => { view.mode = f3.select.value; draw(); });
  f4.select.addEventListener('change', () => { view.limit = Number(f4.select.value); view.start = 0; refetch('page-size'); });
  const prev = h('button', { type: 'button', class: 'small', id: 'page-prev', disabled: view.start === 0 }, 'Previous');
  const next = h('button', { type: 'button', class: 'small', id: 'page-next', disabled: last >= vols.total }, 'Next');
  prev.addEventListener('click', () => { view.start = Math.max(0, view.start - view.limit); refetch('page-prev'); });
  next.addEventListener('click', () => { view.start += view.limit; refetch('page-next'); });
  draw();
  if (view.focus) {
    const id = view.focus;
    view.focus = null;
    // on the last (first) page Next (Previous) is disabled: the other pager button keeps the focus
    const other = { 'page-next': 'page-prev', 'page-prev': 'page-next' };
    setTimeout(() => {
      let el = document.getElementById(id);
      if (el && el.disabled && other[id]) el = document.getElementById(other[id]);
      if (el && !el.disabled) el.focus();
    }, 0);
  }

  if (!vols.total && !view.ps && !view.vm) return h('p', { class: 'muted', id: 'no-volumes' }, 'No volumes are visible to this account.');
  return h('div', null,
    h('p', { class: 'muted intro' }, 'The effective mode is what the next start or attach would use, with the reason. '
      + 'An override on a volume wins over its primary storage and the global setting.'),
    h('div', { class: 'filters', role: 'group', 'aria-label': 'Filters' },
      h('div', { class: 'field' }, f1.label, f1.select), h('div', { class: 'field' }, f2.label, f2.select),
      h('div', { class: 'field' }, f3.label, f3.select), h('div', { class: 'field' }, f4.label, f4.select)),
    count,
    h('table', { class: 'data', id: 'volume-table' },
      h('caption', { class: 'sr-only' }, 'Volumes'),
      h('thead', null, h('tr', null, ['Volume', 'Requested', 'Effective at next start', 'Reason', 'Observed workload', 'Override', 'Cache', 'Preallocation', 'Allocated / size']
        .map(t => h('th', { scope: 'col' }, t)))),
      tbody),
    h('nav', { class: 'pager', 'aria-label': 'Volume pages' }, prev, ' ', next));
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
    h('td', { 'data-label': 'Reason', class: 'reason' }, h('div', { 'data-reason': v.uuid }, d ? d.reason : 'no decision'),
      d && d.optimizedFor ? h('div', { class: 'muted', 'data-optimized-for': v.uuid },
        'optimised for: ', workloadText(d.optimizedFor)) : null),
    h('td', { 'data-label': 'Observed workload', 'data-workload': v.uuid },
      v.workload ? [h('div', null, workloadText(v.workload)),
        h('div', { class: 'muted' }, `over ${Math.round(v.workload.sampledSeconds)} s, last sampled ${v.workload.sampledAt}`)]
        : h('span', { class: 'muted' }, 'not observed yet')),
    h('td', { 'data-label': 'Override' }, h('div', { class: 'inline' }, label, select, apply), problem),
    h('td', { 'data-label': 'Cache', 'data-cache': v.uuid }, v.cacheMode || '—'),
    h('td', { 'data-label': 'Preallocation' }, v.preallocation || 'none'),
    h('td', { 'data-label': 'Allocated / size' }, allocation(v)));
}

// One line per workload, the same on the volume and on the decision: the read share, request sizes, rates, depth.
export function workloadText(w) {
  return `${Math.round(w.readFraction * 100)} % reads · ${bytes(Math.round(w.avgReadBytes))} per read, `
    + `${bytes(Math.round(w.avgWriteBytes))} per write · ${w.readIops.toFixed(1)} reads/s, ${w.writeIops.toFixed(1)} writes/s`
    + ` · ${w.avgQueueDepth.toFixed(1)} in flight`;
}

function allocation(v) {
  if (v.actualSize === null || v.actualSize === undefined) return h('span', null, `unknown / ${bytes(v.size)}`);
  const pct = v.size ? Math.round((v.actualSize / v.size) * 100) : 0;
  return h('span', { title: `${v.actualSize} of ${v.size} bytes` }, h('span', { class: 'nowrap' }, `${bytes(v.actualSize)} / ${bytes(v.size)}`),
    h('div', { class: 'muted' }, `${pct}% allocated`));
}
