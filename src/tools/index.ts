/** Built-in tools' public face: `defaultTools()`, its options and its error class. */
export { type DefaultToolsOptions, defaultTools } from './default-tools.js';
export { BuiltinToolError, type BuiltinToolErrorKind } from './errors.js';
