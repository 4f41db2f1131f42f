// What the background wires. Everything else imports the trace files directly.
export { createStoredRecorder } from './stored-recorder';
export { setupTraceService } from './setup-trace-service';
