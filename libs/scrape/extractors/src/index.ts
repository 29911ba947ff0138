export * from './lib/structured-data';
export * from './lib/currency.util';
export * from './lib/product.extractor';
export * from './lib/menu.extractor';
export * from './lib/change-tracking.util';
