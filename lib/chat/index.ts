export type { JSONSchema, ToolAnnotations, ToolDescriptor, ToolOutput } from './tool-descriptor';
export type { ChatMessage, ChatRole } from './messages';
export { isRecord } from './is-record';
