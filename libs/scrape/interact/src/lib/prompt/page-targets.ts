/**
 * In-page helpers of prompts, kept as plain browser JavaScript text (like the sandbox bootstrap):
 * they run in the session page through `Runtime.evaluate`.
 */

/**
 * `(description, role) => {selector, label} | null`: the element a description names. A CSS
 * selector that matches is used as is; otherwise visible clickable elements (role `click`) or form
 * fields (role `field`) are scored by their text, value, labels, placeholder, aria-label, name, id
 * and type against the description's words. The winner is marked `data-quarry-target` so the
 * action that follows addresses exactly it.
 */
export const RESOLVE_TARGET = String.raw`(description, role) => {
  const visible = (el) => {
    const rect = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    return rect.width > 0 && rect.height > 0 && style.visibility !== 'hidden' && style.display !== 'none';
  };
  const mark = (el) => {
    const id = String((globalThis.__quarryTargets = (globalThis.__quarryTargets || 0) + 1));
    el.setAttribute('data-quarry-target', id);
    const text = (el.innerText || el.value || el.getAttribute('aria-label') || el.getAttribute('placeholder') || el.getAttribute('name') || '').trim().replace(/\s+/g, ' ').slice(0, 80);
    const tag = el.tagName.toLowerCase() + (el.id ? '#' + el.id : el.getAttribute('name') ? '[name="' + el.getAttribute('name') + '"]' : '');
    return { selector: '[data-quarry-target="' + id + '"]', label: tag, text };
  };
  const raw = String(description || '').trim();
  if (/^[#.\[]|^[a-z]+[#.\[]|^[a-z]+$/i.test(raw) && raw.length > 0) {
    try {
      const direct = document.querySelector(raw);
      if (direct && (/^[#.\[]|[#.\[]/.test(raw) || ['input', 'textarea', 'select', 'button', 'a', 'form'].includes(raw.toLowerCase()))) return mark(direct);
    } catch (error) {
      // not a selector: a description
    }
  }
  const stop = new Set(['the', 'a', 'an', 'button', 'link', 'field', 'box', 'input', 'textbox', 'text', 'area', 'form', 'on', 'of', 'to', 'in', 'into', 'tab', 'icon']);
  const norm = (text) => String(text || '').toLowerCase().replace(/\s+/g, ' ').trim();
  const want = norm(raw);
  const words = want.split(/[^a-z0-9@._-]+/).filter((word) => word && !stop.has(word));
  const fieldSelector = 'input:not([type=hidden]):not([type=submit]):not([type=button]):not([type=checkbox]):not([type=radio]):not([type=image]):not([type=reset]), textarea, select, [contenteditable=""], [contenteditable=true]';
  const clickSelector = 'a, button, input[type=submit], input[type=button], input[type=checkbox], input[type=radio], input[type=image], [role=button], [role=link], [role=tab], [role=menuitem], [role=checkbox], summary, label, [onclick]';
  const candidates = [...document.querySelectorAll(role === 'field' ? fieldSelector : clickSelector)].filter(visible);
  if (role === 'field' && words.length === 0) {
    const active = document.activeElement;
    if (active && active.matches && active.matches(fieldSelector)) return mark(active);
    return candidates[0] ? mark(candidates[0]) : null;
  }
  const labelsOf = (el) => {
    const names = [el.getAttribute('aria-label'), el.getAttribute('placeholder'), el.getAttribute('name'), el.id, el.getAttribute('title'), el.getAttribute('alt')];
    if (role === 'field') names.push(el.getAttribute('type'));
    if (el.labels) for (const label of el.labels) names.push(label.innerText);
    const labelledBy = el.getAttribute('aria-labelledby');
    if (labelledBy) for (const id of labelledBy.split(/\s+/)) names.push(document.getElementById(id)?.innerText);
    return names.map(norm).filter(Boolean);
  };
  let best = null;
  let bestScore = 0;
  for (const el of candidates) {
    const own = norm(role === 'field' ? '' : el.innerText || el.value || '');
    const names = labelsOf(el);
    const all = [own, ...names];
    let score = 0;
    if (want && all.some((text) => text === want)) score = 100;
    else if (want && own && own.includes(want)) score = 60 - Math.min(30, own.length / 10);
    else if (want && names.some((text) => text.includes(want))) score = 50;
    else {
      const haystack = all.join(' ');
      const hits = words.filter((word) => haystack.includes(word)).length;
      if (hits > 0) score = (40 * hits) / words.length;
    }
    if (score > bestScore) {
      best = el;
      bestScore = score;
    }
  }
  return best ? mark(best) : null;
}`;

/** `(what) => string`: the page text a question is answered from. */
export const READ_PAGE = String.raw`(what) => {
  const clean = (text) => String(text || '').replace(/[ \t]+\n/g, '\n').replace(/\n{3,}/g, '\n\n').trim();
  if (what === 'title') return document.title;
  if (what === 'heading') {
    const heading = document.querySelector('h1') || document.querySelector('h2') || document.querySelector('[role=heading]');
    return clean(heading ? heading.innerText : document.title);
  }
  if (what === 'links') {
    return [...document.querySelectorAll('a[href]')]
      .map((a) => (clean(a.innerText) || a.href) + ' — ' + a.href)
      .slice(0, 200)
      .join('\n');
  }
  const main = document.querySelector('main') || document.querySelector('[role=main]') || document.body;
  return clean(main ? main.innerText : '');
}`;

/**
 * `() => {url, title, elements}`: what a language model needs to plan steps: the visible
 * interactive elements, each marked `data-quarry-ref` and named by that selector.
 */
export const PAGE_SNAPSHOT = String.raw`() => {
  const selector = 'a, button, input:not([type=hidden]), textarea, select, [role=button], [role=link], [role=tab], [contenteditable=""], [contenteditable=true], summary';
  const elements = [];
  let index = 0;
  for (const el of document.querySelectorAll(selector)) {
    const rect = el.getBoundingClientRect();
    if (rect.width === 0 || rect.height === 0) continue;
    index += 1;
    el.setAttribute('data-quarry-ref', String(index));
    const label = [...(el.labels || [])].map((label) => label.innerText).join(' ');
    elements.push({
      selector: '[data-quarry-ref="' + index + '"]',
      tag: el.tagName.toLowerCase(),
      type: el.getAttribute('type') || undefined,
      text: (el.innerText || el.value || '').trim().replace(/\s+/g, ' ').slice(0, 100) || undefined,
      label: (label || el.getAttribute('aria-label') || el.getAttribute('placeholder') || el.getAttribute('name') || '').trim().slice(0, 100) || undefined,
    });
    if (elements.length >= 150) break;
  }
  return { url: location.href, title: document.title, elements };
}`;
