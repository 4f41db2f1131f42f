import { assertNever } from '@webmcp-agents/chat';
import { noChoices, type FieldValue } from '@/lib/devtools/form-values-to-args';
import { typedColour, type FormField } from '@/lib/devtools/schema-to-form';
import { sayCommaAtField } from '@/components/shared/comma-in-number';
import { HiddenCharacters } from '@/components/shared/json-text';
import { withCodesShown } from '@/lib/text/hidden-characters';

interface FieldInputProps {
  /** The input's id, unique among all tools' forms. */
  id: string;
  field: FormField;
  value: FieldValue;
  /** The id of the problem that names this field, when the last check failed on it. */
  problemId?: string;
  onChange: (value: FieldValue) => void;
}

/**
 * One input of a tool's run form, labelled with its name, a required mark and its description.
 * Assistive technology gets the same: required, the description, and whether the last check
 * failed on it (then the problem is read with it too).
 */
export function FieldInput({ id, field, value, problemId, onChange }: FieldInputProps) {
  const descriptionId = `${id}-description`;
  const noteId = `${id}-note`;
  const note = field.kind === 'json' ? field.note : field.kind === 'choices' ? uncheckedNote(field) : undefined;
  // A description that only repeats the name (a form's checkbox, which the browser describes by its label) is said once.
  const description = field.description?.trim().toLowerCase() === field.name.toLowerCase() ? undefined : field.description;
  const describedBy = [description ? descriptionId : '', note ? noteId : '', problemId ?? ''].filter((part) => part !== '').join(' ');
  const aria = {
    // A checkbox always sends true or false: "required" would read as "must be checked".
    'aria-required': field.required && !isCheckbox(field) ? true : undefined,
    'aria-describedby': describedBy || undefined,
    'aria-invalid': problemId ? true : undefined,
  };
  const name = (
    <>
      <HiddenCharacters text={field.name} />
      {field.required && (
        <span class="required" title="required" aria-hidden="true">
          {' '}
          *
        </span>
      )}
    </>
  );
  return (
    <div class={`field field-${field.kind}`}>
      {/* A group of checkboxes is named by its own heading: a label names one control. */}
      {field.kind === 'choices' ? (
        <span id={`${id}-name`} class="field-name">
          {name}
        </span>
      ) : (
        <label for={id}>{name}</label>
      )}
      <div class="field-control">
        <FieldControl id={id} field={field} value={value} aria={aria} onChange={onChange} />
        {(field.kind === 'text' || field.kind === 'number') && field.nullable && (
          <label class="null-toggle">
            <input type="checkbox" aria-label={`${field.name}: null`} checked={value === null} onChange={(event) => onChange(event.currentTarget.checked ? null : '')} />
            null
          </label>
        )}
      </div>
      {description && (
        <small id={descriptionId} class="field-description" dir="auto">
          <HiddenCharacters text={description} />
        </small>
      )}
      {note && (
        <small id={noteId} class="field-description">
          {note}
        </small>
      )}
    </div>
  );
}

const isCheckbox = (field: FormField) => field.kind === 'boolean' && field.required && !field.nullable;

type ControlProps = Omit<FieldInputProps, 'problemId'> & { aria: Record<string, string | boolean | undefined> };

function FieldControl({ id, field, value, aria, onChange }: ControlProps) {
  const text = typeof value === 'string' ? value : '';
  const onText = (event: Event) => onChange((event.currentTarget as HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement).value);
  switch (field.kind) {
    case 'boolean':
      if (isCheckbox(field)) return <input id={id} type="checkbox" checked={value === true} {...aria} onChange={(event) => onChange(event.currentTarget.checked)} />;
      return <BooleanSelect id={id} field={field} value={value} aria={aria} onChange={onChange} />;
    case 'number':
      return (
        <input
          id={id}
          type="number"
          value={text}
          disabled={value === null}
          min={field.minimum}
          max={field.maximum}
          step={field.step ?? (field.integer ? 1 : 'any')}
          placeholder={defaultPlaceholder(field)}
          {...aria}
          {...sayCommaAtField(!field.integer)}
          onInput={onText}
        />
      );
    case 'choices':
      return <ChoiceGroup id={id} field={field} value={text} aria={aria} onChange={onChange} />;
    case 'select':
      return (
        <select id={id} value={text} {...aria} onChange={onText}>
          <option value="">{field.required ? '(choose)' : field.default !== undefined ? `(not set: the tool's default is ${sayOption(field.default)})` : '(none)'}</option>
          {field.options.map((_option, index) => (
            <option key={index} value={String(index)} dir="auto">
              {sayChoice(field, index)}
            </option>
          ))}
        </select>
      );
    case 'json':
    case 'arguments':
      return <JsonEditor id={id} name={field.name} template={field.template} text={text} aria={aria} onChange={onChange} />;
    case 'text':
      if (field.inputType) return <input id={id} type={field.inputType} value={text} disabled={value === null} placeholder={defaultPlaceholder(field)} {...aria} onInput={onText} />;
      return (
        <>
          <TextEditor id={id} text={text} disabled={value === null} placeholder={defaultPlaceholder(field)} aria={aria} onChange={onChange} />
          {/* Picks a colour into the box, which may stay empty (left out), as no colour input can. */}
          {field.colourPicker && (
            <input
              type="color"
              class="colour-picker"
              aria-label={`${field.name}: pick a colour`}
              value={typedColour(text)?.toLowerCase() ?? '#000000'}
              disabled={value === null}
              onInput={(event) => onChange(event.currentTarget.value)}
            />
          )}
        </>
      );
    default:
      return assertNever(field);
  }
}

// An optional field left empty is left out of the call, and the tool then uses its own default: say
// which. Else a value of the shape its format asks for.
function defaultPlaceholder(field: FormField): string | undefined {
  const example = field.kind === 'text' && field.example ? `Such as ${field.example}` : undefined;
  if (field.required || (field.kind !== 'text' && field.kind !== 'number') || field.default === undefined) return example;
  return `The tool's default: ${String(field.default)}`;
}

interface TextEditorProps {
  id: string;
  text: string;
  disabled: boolean;
  placeholder: string | undefined;
  aria: ControlProps['aria'];
  onChange(value: FieldValue): void;
}

/**
 * A string's box: one line, as a text box, that grows with the lines it holds. A string may hold
 * line breaks (a message, a note, a form's textarea): Shift+Enter writes one, a paste keeps them,
 * and Enter runs the tool, as in a text box.
 */
function TextEditor({ id, text, disabled, placeholder, aria, onChange }: TextEditorProps) {
  return (
    <textarea
      id={id}
      dir="auto"
      class="text-editor"
      rows={Math.min(8, text.split('\n').length)}
      value={text}
      disabled={disabled}
      placeholder={placeholder}
      {...aria}
      onInput={(event) => onChange(event.currentTarget.value)}
      onKeyDown={(event) => {
        if (event.key !== 'Enter' || event.shiftKey || event.isComposing) return;
        event.preventDefault();
        event.currentTarget.form?.requestSubmit();
      }}
    />
  );
}

/** A boolean that may be left out (or be null): "not set", true, false (and null), as the schema allows. */
function BooleanSelect({ id, field, value, aria, onChange }: ControlProps) {
  const shown = value === true ? 'true' : value === false ? 'false' : value === null ? 'null' : '';
  const unset = field.kind === 'boolean' && field.default !== undefined ? `(not set: the tool's default is ${String(field.default)})` : '(not set)';
  const read: Record<string, FieldValue> = { true: true, false: false, null: null };
  return (
    <select id={id} value={shown} {...aria} onChange={(event) => onChange(read[event.currentTarget.value] ?? '')}>
      <option value="">{field.required ? '(choose)' : unset}</option>
      <option value="true">true</option>
      <option value="false">false</option>
      {field.kind === 'boolean' && field.nullable && <option value="null">null</option>}
    </select>
  );
}

/**
 * A JSON editor. An empty one shows the schema's template as its placeholder, and offers to fill
 * it in; it is left out of the call while empty.
 */
function JsonEditor({ id, name, template, text, aria, onChange }: { id: string; name: string; template: string; text: string; aria: ControlProps['aria']; onChange: (value: FieldValue) => void }) {
  const lines = (text === '' ? template : text).split('\n').length;
  return (
    <>
      <textarea
        id={id}
        class="json-editor"
        rows={Math.min(12, lines + 1)}
        value={text}
        placeholder={template}
        spellcheck={false}
        {...aria}
        onInput={(event) => onChange(event.currentTarget.value)}
      />
      {text === '' && template !== 'null' && (
        <button
          type="button"
          class="button insert-template"
          aria-label={`Fill in the template for ${name}`}
          onClick={() => {
            onChange(template);
            // The button goes once the editor is filled: the person goes on in the editor.
            document.getElementById(id)?.focus();
          }}
        >
          Fill in the template
        </button>
      )}
    </>
  );
}

/**
 * A list of choices (a form's checkbox group, a `<select multiple>`): a checkbox for each. The
 * group takes focus when a check names it, and is read with its name and description.
 */
function ChoiceGroup({ id, field, value, aria, onChange }: { id: string; field: Extract<FormField, { kind: 'choices' }>; value: string; aria: ControlProps['aria']; onChange: (value: FieldValue) => void }) {
  const none = value === noChoices;
  const checked = new Set(value === '' || none ? [] : value.split(','));
  const toggle = (index: string, on: boolean) => {
    const next = field.options.map((_option, at) => String(at)).filter((at) => (at === index ? on : checked.has(at)));
    onChange(next.join(','));
  };
  return (
    <div id={id} class="choice-group" role="group" tabIndex={-1} aria-labelledby={`${id}-name`} aria-describedby={aria['aria-describedby'] as string | undefined}>
      {/* Keyed by option: where the page reorders its options, focus stays on the one it was on. */}
      {field.options.map((option, index) => (
        <label key={JSON.stringify(option)} dir="auto">
          <input
            type="checkbox"
            checked={checked.has(String(index))}
            disabled={none}
            aria-invalid={aria['aria-invalid'] as boolean | undefined}
            onChange={(event) => toggle(String(index), event.currentTarget.checked)}
          />
          {sayChoice(field, index)}
        </label>
      ))}
      {/* Left out, an optional list is the tool's own (a form's, the boxes its page checked): "none" sends an empty one. */}
      {!field.required && (
        <label class="null-toggle">
          <input type="checkbox" aria-label={`${field.name}: none`} checked={none} onChange={(event) => onChange(event.currentTarget.checked ? noChoices : '')} />
          (none)
        </label>
      )}
    </div>
  );
}

/**
 * What a group sends with nothing checked: an empty list where it must be sent, else nothing, so
 * the tool keeps its own choice; and how many it takes, where its schema says.
 */
function uncheckedNote(field: Extract<FormField, { kind: 'choices' }>): string {
  const count = choiceCount(field);
  if (field.required) return `${count}Sent as an empty list while no box is checked.`;
  const own = field.default === undefined ? 'its own choice (a form keeps the boxes its page checked)' : `its default, ${field.default.length === 0 ? 'none of them' : field.default.map(sayOption).join(', ')}`;
  return `${count}Left out of the call while no box is checked, so the tool keeps ${own}; "(none)" sends an empty list.`;
}

function choiceCount({ minItems: fewest, maxItems }: Extract<FormField, { kind: 'choices' }>): string {
  const minItems = fewest === 0 ? undefined : fewest;
  if (minItems !== undefined && maxItems !== undefined) return minItems === maxItems ? `Check ${minItems}. ` : `Check ${minItems} to ${maxItems}. `;
  if (minItems !== undefined) return `Check ${minItems} at least. `;
  if (maxItems !== undefined) return `Check ${maxItems} at most. `;
  return '';
}

/** An option as a select or a group shows it: its title and value, where the page gives a title. */
function sayChoice(field: Extract<FormField, { kind: 'select' | 'choices' }>, index: number): string {
  const option = field.options[index];
  const title = field.titles?.[index];
  // An option holds plain text only: a direction override in the page's words is written as its code.
  return withCodesShown(title ? `${title} (${sayOption(option)})` : sayOption(option));
}

/**
 * A choice as the form shows it: text as it is, anything else as JSON; and as JSON text that would
 * read as something else (`"1"` beside `1`, `"true"`, `""`, a space at either end).
 */
export function sayOption(option: unknown): string {
  if (typeof option !== 'string') return JSON.stringify(option);
  return option === '' || option.trim() !== option || readsAsJsonValue(option) ? JSON.stringify(option) : option;
}

function readsAsJsonValue(text: string): boolean {
  try {
    return typeof JSON.parse(text) !== 'string';
  } catch {
    return false;
  }
}
