import CloseCircleFilled from '@ant-design/icons-svg/es/asn/CloseCircleFilled';
import EyeInvisibleOutlined from '@ant-design/icons-svg/es/asn/EyeInvisibleOutlined';
import EyeOutlined from '@ant-design/icons-svg/es/asn/EyeOutlined';
import LoadingOutlined from '@ant-design/icons-svg/es/asn/LoadingOutlined';
import type { IconDefinition } from '@ant-design/icons-svg/es/types';
import { h, icon } from './dom.ts';

/**
 * The few controls the login page needs, drawn like the console's Ant Design ones (the class names
 * and the look are in login.css): a form item with its label and message, a large input with a
 * prefix icon, a password input with its eye, a button with a busy state, an error alert, a
 * segmented choice.
 */

/** Two CJK characters get a space between them on a button, as antd writes them ("登 录"). */
function buttonText(text: string): string {
  return /^[\u4e00-\u9fa5]{2}$/.test(text) ? text.split('').join(' ') : text;
}

export interface Button {
  el: HTMLButtonElement;
  setBusy(busy: boolean): void;
  setDisabled(disabled: boolean): void;
  setText(text: string): void;
}

export function button(
  text: string,
  opts: {
    type?: 'primary' | 'default' | 'link';
    submit?: boolean;
    large?: boolean;
    block?: boolean;
    onClick?: () => void;
  },
): Button {
  const label = h('span', {}, buttonText(text));
  const classes = [
    'gh-btn',
    `gh-btn-${opts.type ?? 'default'}`,
    opts.large && 'gh-btn-lg',
    opts.block && 'gh-btn-block',
  ];
  const el = h('button', { type: opts.submit ? 'submit' : 'button', class: classes.filter(Boolean).join(' ') }, label);
  if (opts.onClick) el.addEventListener('click', opts.onClick);
  let spinner: HTMLElement | undefined;
  return {
    el,
    setBusy(busy) {
      el.classList.toggle('gh-btn-loading', busy);
      el.setAttribute('aria-busy', String(busy));
      if (busy && !spinner) el.prepend((spinner = icon(LoadingOutlined, 'gh-spin')));
      if (!busy && spinner) {
        spinner.remove();
        spinner = undefined;
      }
    },
    setDisabled(disabled) {
      el.disabled = disabled;
    },
    setText(value) {
      label.textContent = buttonText(value);
    },
  };
}

/** A large input with a prefix icon; `password` adds the eye that shows or hides the value. */
export function input(
  id: string,
  prefix: IconDefinition,
  attrs: Record<string, string | boolean | number | undefined>,
): { wrapper: HTMLElement; input: HTMLInputElement } {
  const field = h('input', { id, class: 'gh-input', ...attrs });
  const wrapper = h('span', { class: 'gh-affix gh-affix-lg' }, h('span', { class: 'gh-prefix' }, icon(prefix)), field);
  if (attrs.type === 'password') {
    const eye = h('span', { class: 'gh-suffix gh-eye' });
    const draw = () => eye.replaceChildren(icon(field.type === 'password' ? EyeInvisibleOutlined : EyeOutlined));
    eye.addEventListener('mousedown', (e) => e.preventDefault());
    eye.addEventListener('click', () => {
      field.type = field.type === 'password' ? 'text' : 'password';
      draw();
    });
    draw();
    wrapper.append(eye);
  }
  field.addEventListener('focus', () => wrapper.classList.add('gh-affix-focused'));
  field.addEventListener('blur', () => wrapper.classList.remove('gh-affix-focused'));
  return { wrapper, input: field };
}

/** A vertical form item: label, control, and the field's message under it. */
export function formItem(
  label: string | undefined,
  htmlFor: string | undefined,
  control: HTMLElement,
): { el: HTMLElement; setError(msg: string | undefined): void } {
  const explain = h('div', { class: 'gh-explain', role: 'alert' });
  const el = h(
    'div',
    { class: 'gh-form-item' },
    label ? h('div', { class: 'gh-label' }, h('label', { for: htmlFor }, label)) : null,
    control,
    explain,
  );
  return {
    el,
    setError(msg) {
      explain.textContent = msg ?? '';
      el.classList.toggle('gh-form-item-error', Boolean(msg));
    },
  };
}

/** The error alert above the form (`data-testid="login-error"`, its text the server's message). */
export function errorAlert(message: string): HTMLElement {
  return h(
    'div',
    { class: 'gh-alert', role: 'alert', 'data-testid': 'login-error' },
    icon(CloseCircleFilled, 'gh-alert-icon'),
    h('div', { class: 'gh-alert-message' }, message),
  );
}

/** A segmented choice (radio buttons drawn as one bar). */
export function segmented<T extends string>(
  name: string,
  options: { value: T; label: string }[],
  value: T,
  onChange: (value: T) => void,
  opts: { small?: boolean; block?: boolean } = {},
): HTMLElement {
  const classes = ['gh-segmented', opts.small && 'gh-segmented-sm', opts.block && 'gh-segmented-block'];
  const bar = h('div', { class: classes.filter(Boolean).join(' '), role: 'radiogroup' });
  for (const o of options) {
    const radio = h('input', {
      type: 'radio',
      name,
      value: o.value,
      class: 'gh-segmented-input',
      checked: o.value === value,
    });
    radio.addEventListener('change', () => {
      for (const item of bar.children) item.classList.toggle('gh-segmented-selected', item.contains(radio));
      onChange(o.value);
    });
    bar.append(
      h(
        'label',
        { class: `gh-segmented-item${o.value === value ? ' gh-segmented-selected' : ''}` },
        radio,
        h('span', { class: 'gh-segmented-label', title: o.label }, o.label),
      ),
    );
  }
  return bar;
}
