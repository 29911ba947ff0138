export interface SrcsetCandidate {
  url: string;
  /** Width descriptor (`640w`), when given. */
  width?: number;
  /** Pixel density descriptor (`2x`); 1 when no descriptor is given. */
  density: number;
}

/** Parses a `srcset` value, including URLs that contain commas (`w_100,h_80` CDN paths). */
export function parseSrcset(srcset: string): SrcsetCandidate[] {
  const out: SrcsetCandidate[] = [];
  let i = 0;
  const n = srcset.length;
  while (i < n) {
    while (i < n && /[\s,]/.test(srcset[i])) i++;
    if (i >= n) break;
    let end = i;
    while (end < n && !/\s/.test(srcset[end])) end++;
    let url = srcset.slice(i, end);
    i = end;
    let descriptor = '';
    if (url.endsWith(',')) {
      url = url.replace(/,+$/, '');
    } else {
      let depth = 0;
      while (i < n && (srcset[i] !== ',' || depth > 0)) {
        if (srcset[i] === '(') depth++;
        else if (srcset[i] === ')') depth = Math.max(0, depth - 1);
        descriptor += srcset[i++];
      }
      i++;
    }
    if (!url) continue;
    const candidate: SrcsetCandidate = { url, density: 1 };
    for (const token of descriptor.trim().split(/\s+/)) {
      const m = /^(\d+(?:\.\d+)?)([wx])$/i.exec(token);
      if (!m) continue;
      if (m[2].toLowerCase() === 'w') candidate.width = Number(m[1]);
      else candidate.density = Number(m[1]);
    }
    out.push(candidate);
  }
  return out;
}

/** URL of the largest candidate: widest `w` descriptor, else highest density. */
export function largestSrcsetUrl(srcset: string): string | undefined {
  const candidates = parseSrcset(srcset);
  if (candidates.length === 0) return undefined;
  const withWidth = candidates.filter((c) => c.width !== undefined);
  const pool = withWidth.length > 0 ? withWidth : candidates;
  let best = pool[0];
  for (const c of pool) {
    if ((c.width ?? c.density) > (best.width ?? best.density)) best = c;
  }
  return best.url;
}
