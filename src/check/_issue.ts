export { quoteValue, shortName } from '../values/index.js';
