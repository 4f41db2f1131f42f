import type { FormField } from '@/lib/devtools/schema-to-form';

interface FieldInputProps {
  /** Makes the input's id unique among all tools' forms. */
  idPrefix: string;
  field: FormField;
  value: string | boolean;
  onChange: (value: string | boolean) => void;
}

/** One input of a tool's run form, labelled with its name, a required mark and its description. */
export function FieldInput({ idPrefix, field, value, onChange }: FieldInputProps) {
  const id = `${idPrefix}-${field.name}`;
  return (
    <div class={`field field-${field.kind}`}>
      <label for={id}>
        {field.name}
        {field.required && (
          <span class="required" title="required">
            {' '}
            *
          </span>
        )}
      </label>
      <FieldControl idPrefix={idPrefix} id={id} field={field} value={value} onChange={onChange} />
      {field.description && <small class="field-description">{field.description}</small>}
    </div>
  );
}

function FieldControl({ id, field, value, onChange }: FieldInputProps & { id: string }) {
  const text = typeof value === 'string' ? value : '';
  const onText = (event: Event) => onChange((event.currentTarget as HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement).value);
  switch (field.kind) {
    case 'boolean':
      return <input id={id} type="checkbox" checked={value === true} onChange={(event) => onChange(event.currentTarget.checked)} />;
    case 'number':
      return (
        <input id={id} type="number" value={text} min={field.minimum} max={field.maximum} step={field.integer ? 1 : 'any'} onInput={onText} />
      );
    case 'select':
      return (
        <select id={id} value={text} onChange={onText}>
          <option value="">{field.required ? '(choose)' : '(none)'}</option>
          {field.options.map((option, index) => (
            <option key={index} value={String(index)}>
              {typeof option === 'string' ? option : JSON.stringify(option)}
            </option>
          ))}
        </select>
      );
    case 'json':
      return <textarea id={id} class="json-editor" rows={Math.min(12, text.split('\n').length + 1)} value={text} spellcheck={false} onInput={onText} />;
    default:
      return <input id={id} type="text" value={text} onInput={onText} />;
  }
}
