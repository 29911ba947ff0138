import type { PageElement, PageGlobals, PageStyle } from './in-page.types';

/**
 * In the page (serialised by `page.evaluate`, so self-contained): the brand identity (`branding`, docs/scraping.md#formats)
 * from what the browser computed: CSS custom properties, computed styles of the body, headings,
 * links, buttons and inputs, the logo, favicon and og:image. Every member the page does not
 * express is null (no invented values); `personality` needs a language model and stays null.
 */
export function captureBranding(): Record<string, unknown> {
  const { document, location, getComputedStyle } = globalThis as unknown as PageGlobals;
  const absolute = (value: string | null | undefined): string | null => {
    if (!value || value.startsWith('data:')) return value || null;
    try {
      return new URL(value, location.href).href;
    } catch {
      return null;
    }
  };
  const toHex = (color: string | null | undefined): string | null => {
    if (!color) return null;
    const value = color.trim();
    if (/^#[0-9a-f]{3,8}$/i.test(value)) {
      const digits = value.slice(1);
      if (digits.length === 3 || digits.length === 4) {
        return `#${digits
          .slice(0, 3)
          .split('')
          .map((d) => d + d)
          .join('')}`.toUpperCase();
      }
      return `#${digits.slice(0, 6)}`.toUpperCase();
    }
    const match = value.match(
      /rgba?\(\s*([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)(?:\s*[,/]\s*([\d.]+%?))?\s*\)/i,
    );
    if (!match) return null;
    const alpha =
      match[4] === undefined ? 1 : match[4].endsWith('%') ? parseFloat(match[4]) / 100 : parseFloat(match[4]);
    if (alpha < 0.1) return null;
    return `#${[match[1], match[2], match[3]].map((part) => Math.round(Number(part)).toString(16).padStart(2, '0')).join('')}`.toUpperCase();
  };
  const rgb = (hex: string) => [1, 3, 5].map((index) => parseInt(hex.slice(index, index + 2), 16));
  const luminance = (hex: string) => {
    const [r, g, b] = rgb(hex).map((channel) => {
      const c = channel / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const saturation = (hex: string) => {
    const [r, g, b] = rgb(hex);
    const max = Math.max(r, g, b);
    const min = Math.min(r, g, b);
    return max === 0 ? 0 : (max - min) / max;
  };
  const style = (element: PageElement | null): PageStyle | null =>
    element ? getComputedStyle(element) : null;
  const prop = (element: PageElement | null, name: string): string | null =>
    style(element)?.getPropertyValue(name).trim() || null;
  const firstFamily = (family: string | null) =>
    family
      ? family
          .split(',')[0]
          .trim()
          .replace(/^["']|["']$/g, '')
      : null;
  const visible = (element: PageElement) => {
    const rect = element.getBoundingClientRect();
    const computed = getComputedStyle(element);
    return (
      rect.width > 0 &&
      rect.height > 0 &&
      computed.getPropertyValue('display') !== 'none' &&
      computed.getPropertyValue('visibility') !== 'hidden'
    );
  };
  const all = (selector: string, limit = 200): PageElement[] =>
    Array.from(document.querySelectorAll(selector)).slice(0, limit);

  // CSS custom properties declared on :root / html.
  const variables: Record<string, string> = {};
  const rootStyle = getComputedStyle(document.documentElement);
  for (const sheet of Array.from(document.styleSheets)) {
    let rules: { cssText: string; selectorText?: string; style?: PageStyle }[] = [];
    try {
      rules = Array.from(sheet.cssRules ?? []);
    } catch {
      continue; // cross-origin stylesheet
    }
    for (const rule of rules) {
      if (!rule.selectorText || !/(^|,)\s*(:root|html)\s*(,|$)/.test(rule.selectorText)) continue;
      for (const match of rule.cssText.matchAll(/(--[\w-]+)\s*:/g)) {
        const value = rootStyle.getPropertyValue(match[1]).trim();
        if (value) variables[match[1]] = value;
      }
    }
  }
  const variable = (...patterns: RegExp[]): string | null => {
    for (const pattern of patterns) {
      for (const [name, value] of Object.entries(variables)) {
        if (pattern.test(name)) {
          const hex = toHex(value);
          if (hex) return hex;
        }
      }
    }
    return null;
  };

  const body = document.body;
  const background =
    toHex(prop(body, 'background-color')) ??
    toHex(prop(document.documentElement, 'background-color')) ??
    '#FFFFFF';
  const textPrimary = toHex(prop(body, 'color'));
  const links = all('a[href]').filter(visible);
  const linkColor = links.length ? toHex(prop(links[0], 'color')) : null;
  const buttons = all(
    'button, .btn, .button, a[class*="btn"], a[class*="button"], input[type="submit"]',
  ).filter(visible);
  const filled = buttons.filter((button) => {
    const hex = toHex(prop(button, 'background-color'));
    return hex !== null && hex !== background;
  });
  const outlined = buttons.filter(
    (button) => !filled.includes(button) && (parseFloat(prop(button, 'border-top-width') ?? '0') || 0) > 0,
  );
  const primaryButton = filled[0] ?? null;
  const secondaryButton =
    filled.find(
      (button) => toHex(prop(button, 'background-color')) !== toHex(prop(primaryButton, 'background-color')),
    ) ??
    outlined[0] ??
    null;

  const counts = new Map<string, number>();
  for (const element of [...buttons, ...links, ...all('h1, h2, h3, header, nav')]) {
    for (const name of ['background-color', 'color', 'border-top-color']) {
      const hex = toHex(prop(element, name));
      if (hex && saturation(hex) > 0.25) counts.set(hex, (counts.get(hex) ?? 0) + 1);
    }
  }
  const ranked = [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([hex]) => hex);
  const primary =
    variable(/^--(?:color-)?primary(?:-color)?$/i, /^--brand(?:-color)?$/i, /primary/i, /brand/i) ??
    toHex(prop(primaryButton, 'background-color')) ??
    ranked[0] ??
    null;
  const secondary =
    variable(/^--(?:color-)?secondary(?:-color)?$/i, /secondary/i) ??
    (secondaryButton ? toHex(prop(secondaryButton, 'background-color')) : null) ??
    ranked.find((hex) => hex !== primary) ??
    null;
  const accent =
    variable(/^--(?:color-)?accent(?:-color)?$/i, /accent/i) ??
    ranked.find((hex) => hex !== primary && hex !== secondary) ??
    null;
  const paragraph = all('p, small, .muted, .text-muted, figcaption').find((element) => {
    const hex = toHex(prop(element, 'color'));
    return hex !== null && hex !== textPrimary;
  });
  // Colors the page does not define are left out, never null: clients type `colors` as a map of
  // strings (firecrawl-py's BrandingProfile rejects the whole document over one null).
  const colorEntries = Object.entries({
    primary,
    secondary,
    accent,
    background,
    textPrimary,
    textSecondary: paragraph ? toHex(prop(paragraph, 'color')) : null,
    link: linkColor,
    success: variable(/success/i),
    warning: variable(/warning|warn/i),
    error: variable(/error|danger/i),
  }).filter((entry): entry is [string, string] => typeof entry[1] === 'string');
  const colors = colorEntries.length ? Object.fromEntries(colorEntries) : null;

  const h1 = document.querySelector('h1');
  const h2 = document.querySelector('h2');
  const h3 = document.querySelector('h3');
  const code = document.querySelector('code, pre, kbd');
  const families = new Set<string>();
  for (const element of [body, h1, h2, h3, code, primaryButton]) {
    const family = firstFamily(prop(element, 'font-family'));
    if (family) families.add(family);
  }
  const weights = new Set<number>();
  for (const element of all('body, h1, h2, h3, h4, p, a, strong, b, button, small, span', 300)) {
    const weight = parseInt(prop(element, 'font-weight') ?? '', 10);
    if (Number.isFinite(weight)) weights.add(weight);
  }
  const weightList = [...weights].sort((a, b) => a - b);
  const fontWeights: Record<string, number> = {};
  const light = weightList.find((weight) => weight < 400);
  if (light !== undefined) fontWeights['light'] = light;
  const bodyWeight = parseInt(prop(body, 'font-weight') ?? '400', 10);
  fontWeights['regular'] = Number.isFinite(bodyWeight) ? bodyWeight : 400;
  const medium = weightList.find((weight) => weight >= 500 && weight < 600);
  if (medium !== undefined) fontWeights['medium'] = medium;
  const bold = weightList.filter((weight) => weight >= 600).pop();
  if (bold !== undefined) fontWeights['bold'] = bold;

  const typography = {
    fontFamilies: {
      primary: firstFamily(prop(body, 'font-family')),
      heading: firstFamily(prop(h1 ?? h2, 'font-family')),
      code: firstFamily(prop(code, 'font-family')),
    },
    fontSizes: {
      h1: prop(h1, 'font-size'),
      h2: prop(h2, 'font-size'),
      h3: prop(h3, 'font-size'),
      body: prop(body, 'font-size'),
    },
    fontWeights,
    lineHeights: { heading: prop(h1 ?? h2, 'line-height'), body: prop(body, 'line-height') },
  };

  const spacingSamples: number[] = [];
  // Spacing the designer set (buttons, layout blocks), not browser defaults of text and form elements.
  for (const element of [
    ...buttons,
    ...all('main, section, article, header, nav, footer, .container, [class*="container"], .card', 100),
  ]) {
    for (const name of ['padding-top', 'padding-left', 'padding-bottom', 'margin-bottom']) {
      const value = parseFloat(prop(element, name) ?? '');
      if (value >= 4 && value <= 64) spacingSamples.push(value);
    }
  }
  const baseUnit =
    spacingSamples.length === 0
      ? null
      : spacingSamples.every((value) => value % 8 === 0)
        ? 8
        : spacingSamples.filter((value) => value % 4 === 0).length >= spacingSamples.length / 2
          ? 4
          : null;
  const radius = prop(primaryButton ?? document.querySelector('input, .card'), 'border-radius');
  const spacing =
    baseUnit === null && !primaryButton
      ? null
      : {
          baseUnit,
          borderRadius: radius,
          padding: primaryButton ? { button: prop(primaryButton, 'padding') } : {},
          margins: { body: prop(body, 'margin') },
        };

  const input =
    all('input[type="text"], input[type="email"], input[type="search"], input:not([type]), textarea').find(
      visible,
    ) ?? null;
  const components =
    primaryButton || secondaryButton || input
      ? {
          buttonPrimary: primaryButton
            ? {
                background: toHex(prop(primaryButton, 'background-color')),
                textColor: toHex(prop(primaryButton, 'color')),
                borderRadius: prop(primaryButton, 'border-radius'),
              }
            : null,
          buttonSecondary: secondaryButton
            ? {
                background: toHex(prop(secondaryButton, 'background-color')),
                textColor: toHex(prop(secondaryButton, 'color')),
                borderColor: toHex(prop(secondaryButton, 'border-top-color')),
                borderRadius: prop(secondaryButton, 'border-radius'),
              }
            : null,
          input: input
            ? {
                background: toHex(prop(input, 'background-color')),
                borderColor: toHex(prop(input, 'border-top-color')),
                borderRadius: prop(input, 'border-radius'),
                textColor: toHex(prop(input, 'color')),
              }
            : null,
        }
      : null;

  const logoElement =
    document.querySelector(
      'header img[src*="logo" i], header img[alt*="logo" i], header img[class*="logo" i], [class*="logo" i] img, img[id*="logo" i], img[class*="logo" i], img[alt*="logo" i], img[src*="logo" i]',
    ) ?? null;
  const logo = logoElement ? absolute(logoElement.getAttribute('src')) : null;
  const favicon = absolute(
    document.querySelector('link[rel~="icon" i]')?.getAttribute('href') ??
      document.querySelector('link[rel="apple-touch-icon" i]')?.getAttribute('href') ??
      null,
  );
  const ogImage = absolute(
    document.querySelector('meta[property="og:image" i], meta[name="og:image" i]')?.getAttribute('content') ??
      null,
  );
  const images = logo || favicon || ogImage ? { logo, favicon, ogImage } : null;

  const iconLibraries: string[] = [];
  if (document.querySelector('[class*="fa-"], .fa, .fas, .far, .fab')) iconLibraries.push('font-awesome');
  if (document.querySelector('.material-icons, .material-symbols-outlined, [class*="material-symbols"]'))
    iconLibraries.push('material');
  if (document.querySelector('[data-lucide], .lucide')) iconLibraries.push('lucide');
  const svgIcons = all('svg', 500).filter((svg) => {
    const rect = svg.getBoundingClientRect();
    return rect.width > 0 && rect.width <= 48 && rect.height <= 48;
  }).length;
  // String values only (the reference's `icons` and `animations` are maps of strings).
  const icons =
    iconLibraries.length || svgIcons
      ? {
          style: iconLibraries[0] ?? 'inline-svg',
          libraries: iconLibraries.join(', '),
          inlineSvgCount: String(svgIcons),
        }
      : null;

  const durations = all('a, button, [class*="btn"], nav *', 200)
    .map((element) => prop(element, 'transition-duration'))
    .filter((value): value is string => !!value && value !== '0s');
  const easing = all('a, button, [class*="btn"], nav *', 200)
    .map((element) => prop(element, 'transition-timing-function'))
    .find((value) => !!value && value !== 'ease');
  const animations = durations.length
    ? {
        transitionDuration: durations[0],
        ...(easing ? { easing } : {}),
        animatedElements: String(durations.length),
      }
    : null;

  const container = document.querySelector('main, .container, [class*="container"], #content, article');
  const maxWidth = prop(container, 'max-width');
  const header = document.querySelector('header');
  const layout =
    container || header
      ? {
          maxContentWidth: maxWidth && maxWidth !== 'none' ? maxWidth : null,
          headerHeight: header ? `${Math.round(header.getBoundingClientRect().height)}px` : null,
          hasSidebar: !!document.querySelector('aside, .sidebar'),
        }
      : null;

  const declaredScheme =
    document.querySelector('meta[name="color-scheme" i]')?.getAttribute('content') ??
    prop(document.documentElement, 'color-scheme');
  const colorScheme =
    luminance(background) < 0.4
      ? 'dark'
      : declaredScheme && /^\s*dark\s*$/.test(declaredScheme)
        ? 'dark'
        : 'light';

  return {
    colorScheme,
    logo,
    colors,
    fonts: families.size ? [...families].map((family) => ({ family })) : null,
    typography,
    spacing,
    components,
    icons,
    images,
    animations,
    layout,
    personality: null,
  };
}
