// A tiny DOM builder: text is always set as text, never parsed as HTML.

export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  if (attrs) {
    for (const [k, v] of Object.entries(attrs)) {
      if (v === null || v === undefined || v === false) continue;
      if (k === 'class') el.className = v;
      else if (k === 'dataset') Object.assign(el.dataset, v);
      else if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
      else if (k === 'value') el.value = v;
      else el.setAttribute(k, v === true ? '' : v);
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

let ids = 0;
export const uid = prefix => `${prefix}-${++ids}`;

/** A labelled select. options: [value, text] pairs or strings. */
export function labelledSelect(label, options, value, attrs = {}, hideLabel = false) {
  const id = attrs.id || uid('sel');
  const sel = h('select', { ...attrs, id },
    options.map(o => Array.isArray(o) ? h('option', { value: o[0] }, o[1]) : h('option', { value: o }, o)));
  sel.value = value;
  const lab = h('label', { for: id, class: hideLabel ? 'sr-only' : null }, label);
  return { label: lab, select: sel };
}

export function modeBadge(mode, refused) {
  if (refused) return h('span', { class: 'badge refused' }, 'refused');
  if (!mode) return h('span', { class: 'badge none' }, '—');
  return h('span', { class: 'badge m-' + mode.replace(/[^a-z_-]/g, '') }, mode);
}

export function sourceText(source) {
  switch (source) {
    case 'VolumeVO': return 'volume override';
    case 'PrimaryStorageVO': return 'primary storage override';
    case 'global': return 'global setting';
    // no admin set one: the rules' default for the volume's storage kind (conf/aio/io-mode-rules.yaml)
    case 'StorageKindDefault': return 'storage kind default';
    default: return source || 'unknown';
  }
}

export function bytes(n) {
  if (n === null || n === undefined) return 'unknown';
  const u = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let i = 0;
  let v = Number(n);
  while (v >= 1024 && i < u.length - 1) { v /= 1024; i++; }
  return (i === 0 || v >= 100 ? v.toFixed(0) : v.toFixed(1)) + ' ' + u[i];
}

export function short(uuid) {
  return uuid ? uuid.slice(0, 8) : '';
}

/** Counts like "io_uring 2 · threads 1" as badges. */
export function modeCounts(counts) {
  const keys = Object.keys(counts).sort();
  if (!keys.length) return h('span', { class: 'muted' }, 'no volumes');
  return h('span', { class: 'counts' }, keys.map(k =>
    h('span', { class: 'count' }, k === 'refused' ? modeBadge(null, true) : modeBadge(k), ' ', h('b', null, counts[k]))));
}
