// VMs (admin): each VM's state and host; its migration targets — every other connected host with what each disk
// would run there and why (GET /v1/vm-instances/{uuid}/migration-target-hosts, decided with THAT host's facts) —
// and a Migrate button per host (PUT …/actions {"migrateVm":{"hostUuid"}}: live when Running, cold when Stopped).
import { errorText, get, put } from '../api.js';
import { h, modeBadge, short } from '../dom.js';

const view = { open: null }; // the VM whose targets are shown

export async function render(ctx) {
  const [vms, hosts] = await Promise.all([get('/vm-instances?sort=%2BcreateDate&limit=1000'), get('/hosts')]);
  if (!vms.inventories.length) return h('p', { class: 'muted' }, 'No VMs yet.');
  const hostName = uuid => (hosts.inventories.find(x => x.uuid === uuid) || { name: short(uuid) }).name;
  const rows = vms.inventories.map(vm => {
    const toggle = h('button', { type: 'button', class: 'small', 'data-targets-of': vm.uuid,
      'aria-expanded': String(view.open === vm.uuid) }, view.open === vm.uuid ? 'Hide targets' : 'Migration targets');
    toggle.addEventListener('click', () => { view.open = view.open === vm.uuid ? null : vm.uuid; ctx.reload(); });
    return h('tr', { 'data-vm': vm.uuid },
      h('td', { 'data-label': 'VM' }, vm.name, h('div', { class: 'muted mono' }, short(vm.uuid))),
      h('td', { 'data-label': 'State', 'data-state': vm.uuid }, vm.state),
      h('td', { 'data-label': 'Host', 'data-host-of': vm.uuid }, hostName(vm.hostUuid)),
      h('td', { 'data-label': 'Disks' }, String((vm.volumeUuids || []).length)),
      h('td', { 'data-label': 'Migrate' }, toggle));
  });
  const table = h('table', { class: 'data' },
    h('thead', null, h('tr', null, ['VM', 'State', 'Host', 'Disks', 'Migrate'].map(t => h('th', { scope: 'col' }, t)))),
    h('tbody', null, rows));
  const open = vms.inventories.find(vm => vm.uuid === view.open);
  return h('div', null, table, open ? await targets(ctx, open, hostName) : null);
}

async function targets(ctx, vm, hostName) {
  const r = await get(`/vm-instances/${vm.uuid}/migration-target-hosts`);
  const kind = vm.state === 'Running' ? 'live' : 'cold (the next start decides there)';
  const section = h('section', { class: 'card', 'data-migration': vm.uuid, 'aria-labelledby': 'mig-' + vm.uuid },
    h('h2', { id: 'mig-' + vm.uuid }, `Migration targets of ${vm.name}`,
      ' ', h('span', { class: 'muted' }, `now on ${hostName(vm.hostUuid)} · ${kind}`)));
  if (!r.inventories.length) {
    section.append(h('p', { class: 'muted' }, 'No other connected host.'));
    return section;
  }
  section.append(h('table', { class: 'data compact' },
    h('thead', null, h('tr', null, ['Host', 'Each disk there', ''].map(t => h('th', { scope: 'col' }, t)))),
    h('tbody', null, r.inventories.map(host => target(ctx, vm, host)))));
  return section;
}

function target(ctx, vm, host) {
  const button = h('button', { type: 'button', class: 'small', 'data-migrate-to': host.uuid,
    disabled: !!host.migrationBlocker || !['Running', 'Stopped'].includes(vm.state) }, 'Migrate');
  button.addEventListener('click', async () => {
    button.disabled = true;
    ctx.status(`Migrating ${vm.name} to ${host.name}…`);
    try {
      const moved = await put(`/vm-instances/${vm.uuid}/actions`, { migrateVm: { hostUuid: host.uuid } });
      await ctx.reload();
      ctx.status(`${vm.name} is now on ${host.name} (${moved.inventory.state}).`);
    } catch (e) {
      await ctx.reload();
      ctx.fail(`${vm.name} was not migrated to ${host.name}: ${errorText(e)}`);
    }
  });
  return h('tr', { 'data-target': host.uuid },
    h('td', { 'data-label': 'Host' }, host.name, h('div', { class: 'muted' }, `${host.managementIp}:${host.agentPort}`)),
    h('td', { 'data-label': 'Each disk there' }, h('ul', { class: 'plain' }, host.ioModes.map(d =>
      h('li', { 'data-disk': d.volumeUuid },
        h('b', null, d.volumeName), ' ', modeBadge(d.effective, d.refused),
        d.requested !== d.effective ? h('span', { class: 'muted' }, ` (asked ${d.requested})`) : null,
        h('div', { class: 'muted', 'data-reason': d.volumeUuid }, d.reason))))),
    h('td', { 'data-label': '' }, button,
      host.migrationBlocker ? h('p', { class: 'why', 'data-blocker': host.uuid }, host.migrationBlocker) : null));
}
