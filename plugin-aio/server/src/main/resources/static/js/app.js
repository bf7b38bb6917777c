// Shell: login, logout, role detection, hash routing between pages.
import { ApiError, errorText, get, onUnauthorized, put, saveSession, session } from './api.js';
import * as globalPage from './pages/global.js';
import * as storagePage from './pages/storage.js';
import * as volumesPage from './pages/volumes.js';
import * as hostsPage from './pages/hosts.js';
import * as vmsPage from './pages/vms.js';
import * as auditPage from './pages/audit.js';

const PAGES = {
  global: { title: 'Global settings', admin: true, module: globalPage },
  storage: { title: 'Primary storage', admin: true, module: storagePage },
  volumes: { title: 'Volumes', admin: false, module: volumesPage },
  hosts: { title: 'Hosts', admin: true, module: hostsPage },
  vms: { title: 'VMs', admin: true, module: vmsPage },
  audit: { title: 'Audit', admin: true, module: auditPage },
};

const $ = id => document.getElementById(id);

function show(el, on) { el.hidden = !on; }

function setMessage(el, text) {
  el.textContent = text || '';
  show(el, !!text);
}

let renderSeq = 0;

/** What a page gets: where to draw, and how to report. */
function context(seq) {
  return {
    body: $('page-body'),
    admin: !!(session() && session().admin),
    error(e) { if (seq === renderSeq) setMessage($('page-error'), e ? errorText(e) : ''); },
    fail(text) { setMessage($('page-status'), ''); setMessage($('page-error'), text); },
    // user actions report even after they re-rendered the page (reload bumps the sequence)
    status(text) { setMessage($('page-status'), text); },
    clear() { setMessage($('page-error'), ''); setMessage($('page-status'), ''); },
    current() { return seq === renderSeq; },
    reload: () => render(true),
  };
}

function defaultPage(s) { return s && s.admin ? 'global' : 'volumes'; }

async function render(keepMessages) {
  const s = session();
  if (!s) return showLogin();
  show($('login-page'), false);
  show($('nav'), true);
  show($('who'), true);
  $('who-name').textContent = `${s.accountName} (${s.admin ? 'admin' : 'tenant'})`;
  document.querySelectorAll('#nav [data-admin]').forEach(a => show(a, s.admin));

  let name = (location.hash.replace(/^#\/?/, '') || defaultPage(s));
  if (!PAGES[name] || (PAGES[name].admin && !s.admin)) name = defaultPage(s);
  const page = PAGES[name];
  document.querySelectorAll('#nav a').forEach(a => {
    if (a.dataset.page === name) a.setAttribute('aria-current', 'page'); else a.removeAttribute('aria-current');
  });
  document.title = `${page.title} · plugin-aio`;
  document.body.dataset.page = name;
  show($('page'), true);
  $('page-title').textContent = page.title;
  const seq = ++renderSeq;
  const ctx = context(seq);
  if (!keepMessages) ctx.clear();
  else setMessage($('page-error'), '');
  const body = $('page-body');
  body.setAttribute('aria-busy', 'true');
  try {
    const node = await page.module.render(ctx);
    if (seq !== renderSeq) return;
    body.replaceChildren(node);
  } catch (e) {
    if (seq !== renderSeq) return;
    body.replaceChildren();
    ctx.error(e);
  } finally {
    if (seq === renderSeq) body.setAttribute('aria-busy', 'false');
  }
}

function showLogin(message) {
  renderSeq++;
  show($('page'), false);
  show($('nav'), false);
  show($('who'), false);
  show($('login-page'), true);
  document.body.dataset.page = 'login';
  document.title = 'Log in · plugin-aio';
  setMessage($('login-error'), message || '');
  $('login-name').focus();
}

async function login(ev) {
  ev.preventDefault();
  const accountName = $('login-name').value.trim();
  const password = $('login-password').value;
  if (!accountName || !password) {
    setMessage($('login-error'), 'Enter the account name and the password.');
    return;
  }
  $('login-submit').disabled = true;
  try {
    const r = await put('/accounts/login', { logInByAccount: { accountName, password } });
    saveSession({ uuid: r.inventory.uuid, accountUuid: r.inventory.accountUuid, accountName, admin: false });
    // Global configs are admin-only: the answer says whether this account is an admin.
    let admin = false;
    try {
      await get('/global-configurations');
      admin = true;
    } catch (e) {
      if (!(e instanceof ApiError) || e.status !== 403) throw e;
    }
    saveSession({ ...session(), admin });
    $('login-password').value = '';
    setMessage($('login-error'), '');
    location.hash = '#/' + defaultPage(session());
    await render();
    $('main').focus();
  } catch (e) {
    saveSession(null);
    setMessage($('login-error'), errorText(e));
  } finally {
    $('login-submit').disabled = false;
  }
}

async function logout() {
  const s = session();
  saveSession(null);
  if (s) {
    try { await fetch('/v1/accounts/sessions/' + encodeURIComponent(s.uuid), { method: 'DELETE', headers: { Authorization: 'OAuth ' + s.uuid } }); } catch { /* gone anyway */ }
  }
  location.hash = '';
  showLogin('You are logged out.');
}

onUnauthorized(() => {
  if (!session()) return;
  saveSession(null);
  showLogin('Your session has expired. Log in again.');
});

$('login-form').addEventListener('submit', login);
$('logout').addEventListener('click', logout);
window.addEventListener('hashchange', () => render());
render();

