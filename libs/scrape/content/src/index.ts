export { decodeBody } from './decode/decode-body.util';
