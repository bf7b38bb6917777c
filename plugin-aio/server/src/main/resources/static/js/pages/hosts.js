// Hosts (admin): io capabilities, and when io_uring or native cannot be used there, why.
import { concreteModes, get, ioModeConfig } from '../api.js';
import { h } from '../dom.js';

export async function render() {
  const r = await get('/hosts');
  if (!r.inventories.length) return h('p', { class: 'muted' }, 'No hosts yet.');
  // the stored io benchmarks of each host (GET /v1/hosts/{uuid}/io-benchmarks), shown under its card
  const [benches, modes] = await Promise.all([Promise.all(r.inventories.map(host =>
    get(`/hosts/${host.uuid}/io-benchmarks`).then(b => b.inventories, () => []))), ioModeConfig().then(concreteModes)]);
  return h('div', { class: 'cards hosts' }, r.inventories.map((host, i) => {
    const c = card(host);
    c.append(benchmarks(benches[i], modes));
    return c;
  }));
}

// Measured io modes per primary storage × image kind: score = geometric mean of ops/s relative to threads.
function benchmarks(list, modes) {
  if (!list || !list.length) {
    return h('p', { class: 'muted', 'data-bench': 'none' }, 'No io benchmark yet: auto uses the static order (io_uring, native, threads).');
  }
  const x = v => (v === undefined || v === null ? '—' : v.toFixed(2) + '×');
  const when = t => (t ? t.replace('T', ' ').replace(/\.\d+Z$/, ' UTC') : 'never');
  return h('table', { class: 'data compact', 'data-bench': 'measured' },
    h('caption', null, 'Measured io modes (qemu-img bench; relative to threads, geometric mean over workloads)'),
    h('thead', null, h('tr', null, ['Storage path', 'Image', ...modes, 'Taken']
      .map(t => h('th', { scope: 'col' }, t)))),
    h('tbody', null, list.flatMap(b => Object.entries(b.scores || {}).map(([kind, s]) => h('tr', null,
      h('td', { 'data-label': 'Storage path', class: 'mono' }, b.path),
      h('td', { 'data-label': 'Image' }, kind),
      ...modes.map(m => h('td', { 'data-label': m }, x(s[m]))),
      h('td', { 'data-label': 'Taken' }, when(b.takenAt) + (b.complete ? '' : ' (incomplete)')))))));
}

function yesNo(ok, yes, no) {
  return h('span', { class: 'badge ' + (ok ? 'ok' : 'bad') }, ok ? yes : no);
}

function card(host) {
  const c = host.ioCapabilities;
  const id = 'host-' + host.uuid;
  if (!c) {
    return h('section', { class: 'card', 'aria-labelledby': id, 'data-host': host.uuid },
      h('h2', { id }, host.name), h('p', { class: 'muted' }, `${host.managementIp}:${host.agentPort} · ${host.status}`),
      h('p', null, 'This host has not reported its io capabilities yet; reconnect it.'));
  }
  const nativeOk = c.qemuNative !== false;
  const nativeWhy = c.qemuNative === false
    ? (c.qemuNativeError || 'QEMU could not open a test image with aio=native.')
    : c.qemuNative === null || c.qemuNative === undefined ? 'Not probed yet.' : 'QEMU opened a test image with aio=native.';
  const paths = c.storagePaths || [];
  const badPaths = paths.filter(p => !p.oDirect);
  return h('section', { class: 'card', 'aria-labelledby': id, 'data-host': host.uuid },
    h('h2', { id }, host.name, ' ', h('span', { class: 'muted' }, `${host.managementIp}:${host.agentPort} · ${host.status}`)),
    h('div', { class: 'modes' },
      h('div', { class: 'mode-cap', 'data-cap': 'io_uring' },
        h('h3', null, 'io_uring ', yesNo(c.ioUringUsable, 'usable', 'not usable')),
        h('p', { class: c.ioUringUsable ? 'muted' : 'why' }, c.ioUringReason || '')),
      h('div', { class: 'mode-cap', 'data-cap': 'native' },
        h('h3', null, 'native ', yesNo(nativeOk && !badPaths.length, 'usable', nativeOk ? 'limited' : 'not usable')),
        h('p', { class: nativeOk ? 'muted' : 'why' }, nativeWhy),
        badPaths.length ? h('p', { class: 'why' }, `O_DIRECT fails on ${badPaths.map(p => p.path).join(', ')}: native needs O_DIRECT there.`) : null),
      h('div', { class: 'mode-cap', 'data-cap': 'threads' },
        h('h3', null, 'threads ', yesNo(true, 'usable', '')), h('p', { class: 'muted' }, 'Works everywhere.'))),
    h('dl', { class: 'facts' },
      fact('Kernel', c.kernel),
      fact('kernel.io_uring_disabled', c.ioUringDisabled === null || c.ioUringDisabled === undefined ? 'absent' : String(c.ioUringDisabled)),
      fact('QEMU', c.qemu + (c.qemuIoUring === false ? ' (no io_uring' + (c.qemuIoUringError ? ': ' + c.qemuIoUringError : '') + ')' : '')),
      fact('libvirt', `${c.libvirt || 'unknown'}${c.libvirtUri ? ' · ' + c.libvirtUri : ''}`),
      fact('Last probe', c.lastProbeDate ? c.lastProbeDate.replace('T', ' ').replace(/\.\d+$/, '') : 'never')),
    paths.length ? h('table', { class: 'data compact' },
      h('caption', null, 'Storage paths probed on this host'),
      h('thead', null, h('tr', null, h('th', { scope: 'col' }, 'Path'), h('th', { scope: 'col' }, 'O_DIRECT'), h('th', { scope: 'col' }, 'Problem'))),
      h('tbody', null, paths.map(p => h('tr', null,
        h('td', { 'data-label': 'Path', class: 'mono' }, p.path),
        h('td', { 'data-label': 'O_DIRECT' }, yesNo(p.oDirect, 'yes', 'no')),
        h('td', { 'data-label': 'Problem' }, p.error || '—'))))) : null);
}

function fact(k, v) {
  return h('div', null, h('dt', null, k), h('dd', null, v || 'unknown'));
}
