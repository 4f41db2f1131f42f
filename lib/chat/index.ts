export type { JSONSchema, ToolAnnotations, ToolDescriptor, ToolOutput } from './tool-descriptor';
export type { ChatMessage, ChatRole } from './messages';
export { assertNever } from './assert-never';
export { isRecord } from './is-record';
export { pause } from './pause';
export { toolOutputLength } from './tool-output-length';
