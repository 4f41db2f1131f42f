// The page-world bridge's end of the wire, named once for the files that post on it.
import type { BridgeEnd, ToExtensionMessage } from '../../messaging/bridge-wire';

export type ExtensionEnd = BridgeEnd<ToExtensionMessage>;
