import { useLayoutEffect, useMemo, useRef } from 'preact/hooks';
import type { JSONSchema } from '@webmcp-agents/chat';
import { validateArgs } from '@webmcp-agents/local-agent';
import { carryOverForm, fieldNamedIn, formValuesToArgs, initialFieldValues, type FieldValues, type Unoffered } from '@/lib/devtools/form-values-to-args';
import { fullSchemaCheck } from '@/lib/devtools/full-schema-check';
import { formSchema, schemaToForm, type FormField } from '@/lib/devtools/schema-to-form';
import type { PageTool } from '@/lib/registry/types';
import { FieldInput, sayOption } from './field-input';
import type { InspectorModel } from './inspector-model';
import type { FormProblem as Problem, FormState } from './run-forms';
import { toolKey } from './tool-key';
import { RunResult } from './run-result';
import { listed } from '@/lib/text/listed';

/**
 * Why the form has no fields: the tool takes no arguments, or its schema is not of an object (its
 * notes say so), which no call's arguments, always an object, can be.
 */
function noFieldsWords(tool: PageTool): string {
  const type = (tool.inputSchema as { type?: unknown } | undefined)?.type;
  if (typeof type !== 'string' || type === 'object') return 'This tool takes no arguments.';
  return `Its input schema is of a ${type}, not an object, so it has no fields to fill: a call's arguments are always an object, which the schema refuses.`;
}

/**
 * A form generated from the tool's input schema. The arguments are checked with `validateArgs`
 * against the schema the agent reads (the agent's own check, so the same calls refused with the
 * same messages) before the tool runs in the page; then against the page's whole schema, whose
 * other rules the agent leaves to the page: arguments that break only those may be run anyway.
 */
export function ToolRunner({ model, tool }: { model: InspectorModel; tool: PageTool }) {
  const { schema, fullCheck, fields, form, setSaved } = useSchemaForm(model, tool);
  const run = model.runs.value[toolKey(tool)];
  const idPrefix = `field-${toolKey(tool)}`;
  // Fields are numbered, not named, in ids: a field may be called "problem", or "note-description".
  const idOf = (name: string) => `${idPrefix}-${fields.findIndex((field) => field.name === name)}`;
  const problemId = `${idPrefix}-problem`;
  const focus = useRunFocus(run?.running === true);
  useFocusOnProblem(form.problem, idOf);
  const keepFocus = useFocusKeptInForm(schema);

  // `anyway`: the person has read what the page's whole schema says, and runs the tool all the same.
  const runForm = (anyway: boolean) => {
    if (run?.running) return;
    const { args, problem } = checkForm(schema, fields, form.values, unreadableNumber(fields, form.values, idOf));
    const breach = args !== undefined && !anyway && 'check' in fullCheck ? fullCheck.check(args) : null;
    const unchecked = breach && (breach.count > 1 ? 'The agent does not check these, and would send them.' : 'The agent does not check this, and would send it.');
    const { dropped: _said, ...rest } = form;
    setSaved({
      ...rest,
      problem: problem ?? (breach && { message: `${breach.message} ${unchecked}`, ...(breach.field !== undefined ? { field: breach.field } : {}), fields: breach.fields, runAnyway: true }),
    });
    if (args !== undefined && breach === null) {
      focus.runStarting();
      model.runTool(tool, args);
    }
  };
  const submit = (event: Event) => {
    event.preventDefault();
    runForm(false);
  };
  // Escape in the tool's form stops its run, as Stop's `aria-keyshortcuts` says (and as in the side
  // panel); a key something else took, or an IME's, is left to it.
  const escapeStops = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || !run?.running || event.defaultPrevented || event.isComposing) return;
    event.preventDefault();
    model.stopRun(tool);
  };
  return (
    <form class="runner" noValidate onSubmit={submit} onKeyDown={escapeStops} ref={keepFocus.form} onFocusIn={keepFocus.focused} onFocusOut={keepFocus.left}>
      {/* Present and empty until a new schema leaves something behind: a region added with its words is often not read. */}
      <p class={form.dropped ? 'muted values-dropped' : 'visually-hidden'} role="status" data-testid="values-dropped">
        {form.dropped ?? ''}
      </p>
      {fields.length === 0 && <p class="muted">{noFieldsWords(tool)}</p>}
      <RunnerFields fields={fields} form={form} idOf={idOf} problemId={problemId} setSaved={setSaved} />
      <RunnerButtons toolName={tool.name} running={run?.running} focus={focus} onStop={() => model.stopRun(tool)} />
      {form.problem && (
        <p class="problem" id={problemId} role="alert">
          {form.problem.message}
        </p>
      )}
      {form.problem?.runAnyway && (
        <button type="button" class="button run-anyway" onClick={() => runForm(true)} aria-label={`Run anyway: ${tool.name}`}>
          Run anyway
        </button>
      )}
      {'unreadable' in fullCheck && (
        <p class="muted" data-testid="partly-checked">
          Checked only as the agent checks (required arguments, types, choices and ranges): the rest of this schema could not be read ({fullCheck.unreadable}).
        </p>
      )}
      {/* A failed check is why this run did not go: an earlier run's result under it would read as this one's. */}
      {!form.problem && <RunResult run={run} />}
    </form>
  );
}

/**
 * The form's fields and values, kept in the model (they outlive this component) across new
 * readings of the tab's tools while the schema stays.
 */
function useSchemaForm(model: InspectorModel, tool: PageTool) {
  // Every reading of the tab's tools brings a new schema object: the form changes only when the schema does.
  const schemaText = JSON.stringify(tool.inputSchema);
  const { schema, fullCheck, fields } = useMemo(
    () => ({ schema: formSchema(tool.inputSchema), fullCheck: fullSchemaCheck(tool.inputSchema), fields: schemaToForm(tool.inputSchema) }),
    [schemaText],
  );
  const form = formFor(model.runFormOf(tool).state.value, schemaText, fields);
  return { schema, fullCheck, fields, form, setSaved: (next: FormState) => model.saveRunForm(tool, next) };
}

function formFor(saved: FormState | undefined, schema: string, fields: FormField[]): FormState {
  if (saved === undefined) return { schema, fields, values: initialFieldValues(fields), problem: null };
  if (saved.schema === schema) return saved;
  // A new schema (the page registered the tool again, or another page has one of that name):
  // what still fits is kept, the rest starts afresh, and the old problem no longer applies.
  const { values, lost, unoffered } = carryOverForm(saved.fields, saved.values, fields);
  return { schema, fields, values, problem: null, ...(lost.length + unoffered.length > 0 ? { dropped: droppedWords(lost, unoffered, fields) } : {}) };
}

/** The values set that a new schema did not keep, in words: the person may have spent a while on them. */
function droppedWords(lost: readonly string[], unoffered: readonly Unoffered[], fields: readonly FormField[]): string {
  const stillAsked = new Set(fields.map((field) => field.name));
  const gone = lost.filter((name) => !stillAsked.has(name)).length;
  const why =
    gone === lost.length
      ? `no longer takes ${lost.length > 1 ? 'them' : 'it'}`
      : gone === 0
        ? 'now asks for something else there'
        : 'no longer takes some and asks for something else in others';
  const said = [
    ...(lost.length > 0 ? [`what was entered in ${listed(lost.map((name) => JSON.stringify(name)))} is gone, as the tool ${why}`] : []),
    ...unoffered.map(({ name, options }) => `${JSON.stringify(name)} no longer offers ${listed(options.map(sayOption))}, which ${options.length > 1 ? 'were' : 'was'} checked`),
  ];
  return `The page changed this tool: ${said.join('; ')}.`;
}

/**
 * The page changed the tool while a field of its form had focus, and that field went with the old
 * schema: focus goes to the form's first field (or its Run button), not to the page's body.
 */
function useFocusKeptInForm(schema: unknown) {
  const form = useRef<HTMLFormElement>(null);
  const last = useRef<Element | null>(null);
  useLayoutEffect(() => {
    const lost = document.activeElement === null || document.activeElement === document.body;
    if (!lost || last.current === null || last.current.isConnected) return;
    form.current?.querySelector<HTMLElement>('input, select, textarea, button')?.focus();
  }, [schema]);
  return {
    form,
    focused: (event: FocusEvent) => void (last.current = event.target as Element | null),
    // Focus the person moved away leaves the field in the page; a field removed with the old schema is gone by then.
    left: (event: FocusEvent) => {
      const field = event.target as Element | null;
      queueMicrotask(() => {
        if (field?.isConnected && last.current === field && !form.current?.contains(document.activeElement)) last.current = null;
      });
    },
  };
}

/** After a failed check, focus goes to the field it names; not for one kept from before the form was last shown. */
function useFocusOnProblem(problem: Problem | null, idOf: (name: string) => string) {
  const handled = useRef(problem);
  useLayoutEffect(() => {
    if (problem === handled.current) return;
    handled.current = problem;
    if (problem?.field !== undefined) document.getElementById(idOf(problem.field))?.focus();
  }, [problem]);
}

/**
 * The number field whose text the browser cannot read as a number ("5-", "1e"): it hands over ""
 * for it, which would leave the argument out of the call unseen. One set to null is not read.
 */
function unreadableNumber(fields: readonly FormField[], values: FieldValues, idOf: (name: string) => string): string | undefined {
  const unreadable = (field: FormField) => {
    const input = document.getElementById(idOf(field.name));
    return input instanceof HTMLInputElement && input.validity.badInput && values[field.name] !== null;
  };
  return fields.find((field) => field.kind === 'number' && unreadable(field))?.name;
}

/** Reads the form into arguments and checks them as the agent would: `args` only when they pass. */
function checkForm(schema: JSONSchema, fields: FormField[], values: FieldValues, unreadable?: string): { args?: Record<string, unknown>; problem: Problem | null } {
  if (unreadable !== undefined) return { problem: { message: `"${unreadable}" is not a number.`, field: unreadable } };
  const read = formValuesToArgs(fields, values);
  const message = read.ok ? validateArgs(schema, read.args) : read.message;
  const field = read.ok ? (message === null ? undefined : fieldNamedIn(message, fields)) : read.field;
  const problem = message === null ? null : { message, ...(field !== undefined ? { field } : {}) };
  return read.ok && message === null ? { args: read.args, problem } : { problem };
}

interface RunnerFieldsProps {
  fields: FormField[];
  form: FormState;
  idOf(name: string): string;
  problemId: string;
  setSaved(form: FormState): void;
}

/** One input for each field of the schema; the one a failed check names points at its message. */
function RunnerFields({ fields, form, idOf, problemId, setSaved }: RunnerFieldsProps) {
  return (
    <>
      {fields.map((field) => {
        const named = form.problem?.field === field.name || form.problem?.fields?.includes(field.name) === true;
        return (
          <FieldInput
            key={field.name}
            id={idOf(field.name)}
            field={field}
            value={Object.hasOwn(form.values, field.name) ? form.values[field.name]! : ''}
            {...(named ? { problemId } : {})}
            // "Run anyway" was for the values as they were, and a problem of this field for its value
            // then: changed, they are checked again at the next run, and the field no longer reads as wrong.
            onChange={(value) => setSaved({ ...form, values: { ...form.values, [field.name]: value }, problem: form.problem?.runAnyway || named ? null : form.problem })}
          />
        );
      })}
    </>
  );
}

interface RunnerButtonsProps {
  toolName: string;
  running: boolean | undefined;
  focus: ReturnType<typeof useRunFocus>;
  onStop(): void;
}

/**
 * "Run in page", and Stop while a run goes; their refs are useRunFocus's, which moves focus between
 * them. Their names say the tool, which a screen reader's list of every card's buttons needs.
 */
function RunnerButtons({ toolName, running, focus, onStop }: RunnerButtonsProps) {
  return (
    <div class="runner-buttons">
      <button type="submit" class="button primary" ref={focus.runButton} disabled={running} aria-label={`Run in page: ${toolName}`}>
        Run in page
      </button>
      {running && (
        <button type="button" class="button" ref={focus.stopButton} onClick={onStop} aria-label={`Stop: ${toolName}`} aria-keyshortcuts="Escape" title="Stop (Esc)">
          Stop
        </button>
      )}
    </div>
  );
}

/**
 * Keeps the keyboard's place across a run: "Run in page" is disabled while the tool runs, so focus
 * on it moves to Stop, and comes back to "Run in page" when the run ends (Stop then goes). Focus
 * the person has since put elsewhere is left alone.
 */
function useRunFocus(running: boolean) {
  const runButton = useRef<HTMLButtonElement>(null);
  const stopButton = useRef<HTMLButtonElement>(null);
  const startedHere = useRef(false);
  const movedToStop = useRef(false);
  useLayoutEffect(() => {
    const focused = document.activeElement;
    const lost = focused === null || focused === document.body;
    if (running && startedHere.current) {
      startedHere.current = false;
      if (focused === runButton.current || lost) {
        stopButton.current?.focus();
        movedToStop.current = true;
      }
    } else if (!running && movedToStop.current) {
      movedToStop.current = false;
      if (focused === stopButton.current || lost) runButton.current?.focus();
    }
  }, [running]);
  return { runButton, stopButton, runStarting: () => (startedHere.current = true) };
}
