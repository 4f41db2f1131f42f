import { Component, h, type ComponentChildren, type FunctionComponent } from 'preact';

/**
 * `render` as a component that renders again only when one of its props is another value (hooks
 * and signals inside it still update it). This is preact/compat's `memo` without compat, which,
 * once loaded, also turns `onChange` into `onInput` on every input of the page.
 */
export function pure<P extends object>(render: FunctionComponent<P>): FunctionComponent<P> {
  class Pure extends Component<P> {
    override shouldComponentUpdate(next: P): boolean {
      const previous = this.props as Record<string, unknown>;
      const nextProps = next as Record<string, unknown>;
      const keys = Object.keys(nextProps);
      return keys.length !== Object.keys(previous).length || keys.some((key) => previous[key] !== nextProps[key]);
    }

    override render(props: P): ComponentChildren {
      return h(render, props);
    }
  }
  return Pure as unknown as FunctionComponent<P>;
}
