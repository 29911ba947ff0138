import { SetMetadata } from '@nestjs/common';

export const PUBLIC_ROUTE = 'quarry:public-route';

/** Marks a route as reachable without an API key (probes, metrics, the API identity). */
export const Public = () => SetMetadata(PUBLIC_ROUTE, true);
