// Audit (admin): who changed what, from → to, when, from where; newest first, one page at a time, filtered by the
// server's query API (GET /v1/audits?q=…&limit&start&replyWithCount=true).
import { get } from '../api.js';
import { h, labelledSelect, short } from '../dom.js';

const ACTIONS = ['UpdateGlobalConfig', 'UpdateResourceConfig', 'DeleteResourceConfig', 'AddKVMHost', 'ReconnectHost',
  'BenchmarkHostIo', 'StartVmInstance', 'StopVmInstance', 'MigrateVm', 'CreateAccount', 'LogInByAccount'];
const view = { action: '', account: '', start: 0, limit: 25, focus: null };

export async function render(ctx) {
  const qs = new URLSearchParams({ limit: view.limit, start: view.start, replyWithCount: 'true' });
  if (view.action) qs.append('q', `action=${view.action}`);
  if (view.account) qs.append('q', `accountName=${view.account}`);
  const r = await get('/audits?' + qs);
  const first = r.total ? view.start + 1 : 0;
  const last = view.start + r.inventories.length;
  const refetch = id => { view.focus = id; ctx.reload(); };

  const fAction = labelledSelect('Action', [['', 'all'], ...ACTIONS.map(a => [a, a])], view.action, { id: 'audit-action' });
  fAction.select.addEventListener('change', () => { view.action = fAction.select.value; view.start = 0; refetch('audit-action'); });
  const account = h('input', { id: 'audit-account', type: 'text', value: view.account, placeholder: 'any', autocomplete: 'off' });
  const accountLabel = h('label', { for: 'audit-account' }, 'Account');
  account.addEventListener('change', () => { view.account = account.value.trim(); view.start = 0; refetch('audit-account'); });
  const prev = h('button', { type: 'button', class: 'small', id: 'audit-prev', disabled: view.start === 0 }, 'Newer');
  const next = h('button', { type: 'button', class: 'small', id: 'audit-next', disabled: last >= r.total }, 'Older');
  prev.addEventListener('click', () => { view.start = Math.max(0, view.start - view.limit); refetch(view.start === 0 ? 'audit-next' : 'audit-prev'); });
  next.addEventListener('click', () => { view.start += view.limit; refetch(view.start + view.limit >= r.total ? 'audit-prev' : 'audit-next'); });
  if (view.focus) {
    const id = view.focus;
    view.focus = null;
    setTimeout(() => { const el = document.getElementById(id); if (el && !el.disabled) el.focus(); }, 0);
  }

  const when = t => t.replace('T', ' ').replace(/\.\d+Z$/, ' UTC').replace(/Z$/, ' UTC');
  const rows = r.inventories.map(a => h('tr', { 'data-audit': a.uuid, class: a.success ? null : 'refused' },
    h('td', { 'data-label': 'When', class: 'nowrap' }, when(a.createDate)),
    h('td', { 'data-label': 'Who', 'data-who': a.uuid }, a.accountName || '—', h('div', { class: 'muted' }, a.clientIp ? 'from ' + a.clientIp : '')),
    h('td', { 'data-label': 'Action', 'data-action': a.uuid }, a.action),
    h('td', { 'data-label': 'What' }, a.resourceName || '—',
      h('div', { class: 'muted' }, [a.resourceType, a.resourceUuid ? short(a.resourceUuid) : null].filter(Boolean).join(' · '))),
    h('td', { 'data-label': 'From → to', 'data-change': a.uuid },
      a.oldValue === null && a.newValue === null ? '—' : `${a.oldValue === null ? '(none)' : a.oldValue} → ${a.newValue === null ? '(none)' : a.newValue}`),
    h('td', { 'data-label': 'Result' }, a.success ? h('span', { class: 'badge ok' }, 'done') : h('span', { class: 'badge bad', title: a.error || '' }, 'refused'),
      a.error ? h('div', { class: 'muted' }, a.error) : null)));

  return h('div', null,
    h('p', { class: 'muted intro' }, 'Every change, written with the change itself: config changes with their old and new '
      + 'value, hosts added or reconnected, benchmarks, VM starts and stops, accounts, and refused logins.'),
    h('div', { class: 'filters', role: 'group', 'aria-label': 'Filters' },
      h('div', { class: 'field' }, fAction.label, fAction.select), h('div', { class: 'field' }, accountLabel, account)),
    h('p', { class: 'muted', id: 'audit-count', role: 'status' }, `Entries ${first}–${last} of ${r.total}, newest first.`),
    h('table', { class: 'data', id: 'audit-table' },
      h('caption', { class: 'sr-only' }, 'Audit trail'),
      h('thead', null, h('tr', null, ['When', 'Who', 'Action', 'What', 'From → to', 'Result'].map(t => h('th', { scope: 'col' }, t)))),
      h('tbody', null, rows)),
    h('nav', { class: 'pager', 'aria-label': 'Audit pages' }, prev, ' ', next));
}
