/** Name of the binding the sandbox calls for page operations: `(method, argsJson) => Promise<resultJson>`. */
export const CALL_BINDING = '__quarryPageCall';
/** Name of the binding console output goes through: `(stream, text)`. */
export const OUTPUT_BINDING = '__quarryOutput';

/**
 * What runs in the sandbox page (plain browser JavaScript, kept as text so no compiler helper or
 * Node reference can slip in). It builds the Playwright-style `page` object — every method a
 * forward to the call binding — and a console that streams to the output binding, then runs the
 * user code as the body of an async function `(page, console)`. It answers `{result}` (the return
 * value as JSON text), `{}` when nothing was returned, or `{error}` with the error's stack.
 */
export const SANDBOX_BOOTSTRAP = String.raw`async (code) => {
  const call = globalThis.${CALL_BINDING};
  const output = globalThis.${OUTPUT_BINDING};
  const invoke = async (method, ...args) => {
    const raw = await call(method, JSON.stringify(args));
    return raw === undefined || raw === null ? undefined : JSON.parse(raw);
  };
  const format = (value) => {
    if (typeof value === 'string') return value;
    if (value instanceof Error) return value.stack || String(value);
    try {
      const text = JSON.stringify(value);
      return text === undefined ? String(value) : text;
    } catch {
      return String(value);
    }
  };
  const writer = (stream) => (...args) => void output(stream, args.map(format).join(' '));
  const sandboxConsole = Object.freeze({
    log: writer('stdout'),
    info: writer('stdout'),
    debug: writer('stdout'),
    dir: writer('stdout'),
    table: writer('stdout'),
    warn: writer('stderr'),
    error: writer('stderr'),
    trace: writer('stderr'),
  });
  for (const name of Object.keys(sandboxConsole)) globalThis.console[name] = sandboxConsole[name];
  const locator = (selector) =>
    Object.freeze({
      click: (options) => invoke('click', selector, options),
      fill: (value) => invoke('fill', selector, String(value)),
      type: (text, options) => invoke('type', selector, String(text), options),
      press: (key) => invoke('press', selector, key),
      hover: () => invoke('hover', selector),
      selectOption: (values) => invoke('selectOption', selector, values),
      textContent: () => invoke('textContent', selector),
      innerText: () => invoke('innerText', selector),
      innerHTML: () => invoke('innerHTML', selector),
      getAttribute: (name) => invoke('getAttribute', selector, name),
      inputValue: () => invoke('inputValue', selector),
      isVisible: () => invoke('isVisible', selector),
      count: () => invoke('count', selector),
      waitFor: (options) => invoke('waitForSelector', selector, options),
      first: () => locator(selector),
      locator: (inner) => locator(selector + ' ' + inner),
    });
  const page = Object.freeze({
    goto: (url, options) => invoke('goto', String(url), options),
    reload: () => invoke('reload'),
    goBack: () => invoke('goBack'),
    click: (selector, options) => invoke('click', selector, options),
    fill: (selector, value) => invoke('fill', selector, String(value)),
    type: (selector, text, options) => invoke('type', selector, String(text), options),
    press: (selector, key) => invoke('press', selector, key),
    hover: (selector) => invoke('hover', selector),
    selectOption: (selector, values) => invoke('selectOption', selector, values),
    waitForSelector: (selector, options) => invoke('waitForSelector', selector, options),
    waitForTimeout: (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, Number(ms) || 0))),
    evaluate: (fn, ...args) =>
      typeof fn === 'function'
        ? invoke('evaluate', 'function', fn.toString(), args)
        : invoke('evaluate', 'expression', String(fn), []),
    content: () => invoke('content'),
    title: () => invoke('title'),
    url: () => invoke('url'),
    textContent: (selector) => invoke('textContent', selector),
    innerText: (selector) => invoke('innerText', selector),
    innerHTML: (selector) => invoke('innerHTML', selector),
    getAttribute: (selector, name) => invoke('getAttribute', selector, name),
    inputValue: (selector) => invoke('inputValue', selector),
    isVisible: (selector) => invoke('isVisible', selector),
    screenshot: (options) => invoke('screenshot', options),
    locator,
    keyboard: Object.freeze({
      press: (key) => invoke('keyboard.press', key),
      type: (text) => invoke('keyboard.type', String(text)),
    }),
  });
  try {
    const AsyncFunction = (async () => undefined).constructor;
    const run = new AsyncFunction('page', 'console', code);
    const value = await run(page, sandboxConsole);
    if (value === undefined) return {};
    let text;
    try {
      text = JSON.stringify(value);
    } catch {
      text = JSON.stringify(String(value));
    }
    return text === undefined ? {} : { result: text };
  } catch (error) {
    return { error: error instanceof Error ? error.stack || String(error) : 'Uncaught ' + format(error) };
  }
}`;
