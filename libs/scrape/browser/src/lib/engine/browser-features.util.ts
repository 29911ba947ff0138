import { hasFormat, type ScrapeRequest } from '@quarry/contracts';

/** Options only a browser can honour; any of them sends the request to the browser first. */
export function browserFeatures(request: ScrapeRequest): string[] {
  const features: string[] = [];
  if ((request.actions?.length ?? 0) > 0) features.push('actions');
  if (hasFormat(request.formats, 'screenshot')) features.push('screenshot');
  if (hasFormat(request.formats, 'branding')) features.push('branding');
  if (request.waitFor > 0) features.push('waitFor');
  if (request.mobile) features.push('mobile');
  if (request.location) features.push('location');
  if (request.profile) features.push('profile');
  return features;
}
