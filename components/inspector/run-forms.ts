// Apart from the inspector's model: each tool's run form as the developer left it, so that what
// they typed outlives its card (a closed "Run", a filter, a listing that briefly lacks the tool).
import { signal, type ReadonlySignal, type Signal } from '@preact/signals';
import type { FieldValues } from '@/lib/devtools/form-values-to-args';
import type { FormField } from '@/lib/devtools/schema-to-form';

/** A failed check: its message and, when it names one, the field it is about (the focus goes there). */
export interface FormProblem {
  message: string;
  field?: string;
  /** Every field the message names, `field` among them: each is marked as refused. */
  fields?: string[];
  /**
   * Only the page's whole schema refuses the arguments (a `pattern`, a length, a nested rule), which
   * the agent does not check and would send: the person may run the tool with them anyway.
   */
  runAnyway?: true;
}

/** The form as the person left it, for the fields of one version of the tool's schema (as JSON). */
export interface FormState {
  schema: string;
  fields: FormField[];
  values: FieldValues;
  problem: FormProblem | null;
  /** What a new schema of the tool left behind of what was typed, in words, until the next run. */
  dropped?: string;
}

/** One tool's form: whether its "Run" section is open, and what was set in it (undefined until something was). */
export interface RunForm {
  readonly open: ReadonlySignal<boolean>;
  readonly state: ReadonlySignal<FormState | undefined>;
}

interface KeptForm {
  open: Signal<boolean>;
  state: Signal<FormState | undefined>;
  /** The last listing that had the tool. */
  listedIn: number;
}

/**
 * How many forms of tools no longer listed are kept, the most lately listed first: enough for a
 * page that swaps its tools as it goes, while tools gone for good do not pile up.
 */
const keptUnlistedForms = 50;

/** The run forms of the inspector's tools, by tool key. */
export class RunForms {
  private readonly forms = new Map<string, KeptForm>();
  private listings = 0;

  /** The form of the tool `key`: a fresh one, closed and untouched, the first time. */
  of(key: string): RunForm {
    return this.kept(key);
  }

  setOpen(key: string, open: boolean): void {
    this.kept(key).open.value = open;
  }

  save(key: string, state: FormState): void {
    this.kept(key).state.value = state;
  }

  /** Takes in a new listing: forms of tools it lacks are kept, within `keptUnlistedForms`. */
  afterListing(listedKeys: ReadonlySet<string>): void {
    this.listings += 1;
    const unlisted: [string, KeptForm][] = [];
    for (const [key, form] of this.forms) {
      if (listedKeys.has(key)) form.listedIn = this.listings;
      // One never opened nor filled holds nothing to keep.
      else if (!form.open.value && form.state.value === undefined) this.forms.delete(key);
      else unlisted.push([key, form]);
    }
    unlisted.sort(([, a], [, b]) => b.listedIn - a.listedIn);
    for (const [key] of unlisted.slice(keptUnlistedForms)) this.forms.delete(key);
  }

  private kept(key: string): KeptForm {
    let form = this.forms.get(key);
    if (!form) {
      form = { open: signal(false), state: signal(undefined), listedIn: this.listings };
      this.forms.set(key, form);
    }
    return form;
  }
}
