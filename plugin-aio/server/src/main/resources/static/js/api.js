// The REST API (/v1) with the session kept in sessionStorage. Errors become ApiError with readable text.

const KEY = 'aio.session';

export function session() {
  try { return JSON.parse(sessionStorage.getItem(KEY)); } catch { return null; }
}

export function saveSession(s) {
  if (s) sessionStorage.setItem(KEY, JSON.stringify(s)); else sessionStorage.removeItem(KEY);
}

export class ApiError extends Error {
  constructor(status, code, description, details) {
    super(description);
    this.status = status;
    this.code = code;
    this.description = description;
    this.details = details;
  }
  /** One or two sentences for a person: the API's description, then what to do. Never JSON. */
  get text() {
    const d = sentence(this.description);
    const x = sentence(this.details);
    return x ? `${d} ${x}` : d;
  }
}

function sentence(s) {
  if (!s) return '';
  s = String(s).trim();
  if (!s) return '';
  // capitalise ordinary words, not names the API starts with (native, io_uring, kvm/vm.ioMode, a uuid)
  const first = s.split(/\s/, 1)[0];
  if (!/^(threads|native|io_uring|auto)\b|[_./:0-9]/.test(first)) s = s.charAt(0).toUpperCase() + s.slice(1);
  return /[.!?]$/.test(s) ? s : s + '.';
}

const STATUS_TEXT = {
  400: 'The server refused the request as invalid.',
  401: 'Your session is missing or has expired.',
  403: 'Your account is not allowed to do this.',
  404: 'The server does not know this resource.',
  409: 'The resource is in a state that forbids this.',
  503: 'The server cannot reach an agent or its database right now.',
};

/** Listeners told when a call answers 401 (the session is gone). */
const unauthorized = new Set();
export function onUnauthorized(fn) { unauthorized.add(fn); }

export async function api(method, path, body) {
  const headers = { Accept: 'application/json' };
  const s = session();
  if (s && s.uuid) headers.Authorization = 'OAuth ' + s.uuid;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let res;
  try {
    res = await fetch('/v1' + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (e) {
    throw new ApiError(0, 'NETWORK', 'The management server cannot be reached', 'Check that it is running and reload the page');
  }
  let json = null;
  const raw = await res.text();
  if (raw) {
    try { json = JSON.parse(raw); } catch { json = null; }
  }
  if (res.ok) return json || {};
  const err = json && json.error;
  const e = err && typeof err === 'object'
    ? new ApiError(res.status, err.code || '', err.description || STATUS_TEXT[res.status] || `The server answered HTTP ${res.status}`, err.details || '')
    : new ApiError(res.status, '', STATUS_TEXT[res.status] || `The server answered HTTP ${res.status}`, '');
  if (res.status === 401 && !path.startsWith('/accounts/login')) unauthorized.forEach(fn => fn(e));
  throw e;
}

export const get = path => api('GET', path);
export const put = (path, body) => api('PUT', path, body);
export const del = path => api('DELETE', path);

/** kvm/vm.ioMode as the API declares it: its value and its validValues (the io modes, then auto). Admin only. */
export const ioModeConfig = () => get('/global-configurations/kvm/vm.ioMode').then(r => r.inventory);

/** The valid values of kvm/vm.ioMode, as any caller may read them: through a volume it can see (none: []). */
export const ioModeValues = volumeUuid => (volumeUuid
  ? get(`/resource-configurations/${volumeUuid}/kvm/vm.ioMode`).then(r => r.validValues)
  : Promise.resolve([]));

/** The io modes a disk can run (the valid values of kvm/vm.ioMode without auto), in the declared order. */
export const concreteModes = config => config.validValues.filter(v => v !== 'auto');

/** Text for any error (ApiError or a bug in this page). */
export function errorText(e) {
  if (e instanceof ApiError) return e.text;
  return 'Something went wrong in this page: ' + (e && e.message ? e.message : String(e));
}
