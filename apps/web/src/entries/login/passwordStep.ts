import { LOGIN_PATH } from '@gatehouse/contract';
import LockOutlined from '@ant-design/icons-svg/es/asn/LockOutlined';
import UserOutlined from '@ant-design/icons-svg/es/asn/UserOutlined';
import { encryptSecret } from '../../lib/crypto.ts';
import { button, formItem, input } from './controls.ts';
import { h } from './dom.ts';
import { postJson, type LoginAnswer } from './loginApi.ts';
import { t } from './texts.ts';

export interface PasswordValues {
  username: string;
  password: string;
  auto_login: boolean;
}

/** Sends the credentials, the password encrypted with the page's key. */
export async function submitLogin(values: PasswordValues, next: string | null): Promise<LoginAnswer> {
  return postJson<LoginAnswer>(LOGIN_PATH, { ...values, password: await encryptSecret(values.password), next });
}

/**
 * The username/password form. `values` is kept by the page so a language switch redraws the form
 * with what was typed; `onAnswer` gets the server's answer, `methods` are other ways to sign in
 * (`loginMethods.ts`) drawn under the button.
 */
export function passwordStep(opts: {
  values: PasswordValues;
  next: string | null;
  onAnswer: (answer: LoginAnswer) => Promise<void>;
  onError: (msg: string | undefined) => void;
  methods: HTMLElement[];
}): { el: HTMLElement; focus: () => void } {
  const { values } = opts;
  const user = input('username', UserOutlined, { name: 'username', autocomplete: 'username', type: 'text' });
  const pass = input('password', LockOutlined, {
    name: 'password',
    autocomplete: 'current-password',
    type: 'password',
  });
  user.input.value = values.username;
  pass.input.value = values.password;
  const userItem = formItem(t('username'), 'username', user.wrapper);
  const passItem = formItem(t('password'), 'password', pass.wrapper);
  const remember = h('input', { type: 'checkbox', id: 'auto_login', name: 'auto_login', class: 'gh-checkbox-input' });
  remember.checked = values.auto_login;
  const rememberItem = h(
    'div',
    { class: 'gh-form-item' },
    h(
      'label',
      { class: 'gh-checkbox', for: 'auto_login' },
      h('span', { class: 'gh-checkbox-box' }, remember, h('span', { class: 'gh-checkbox-inner' })),
      h('span', {}, t('autoLogin')),
    ),
  );
  const submit = button(t('submit'), { type: 'primary', submit: true, large: true, block: true });
  const methods = opts.methods.length ? h('div', { class: 'gh-login-methods' }, ...opts.methods) : null;
  const form = h('form', { novalidate: true }, userItem.el, passItem.el, rememberItem, submit.el, methods);

  const rules = [
    () => userItem.setError(values.username.trim() ? undefined : t('usernameRequired')),
    () => passItem.setError(values.password ? undefined : t('passwordRequired')),
  ];
  let touched = false;
  const sync = () => {
    values.username = user.input.value;
    values.password = pass.input.value;
    values.auto_login = remember.checked;
    if (touched) for (const rule of rules) rule();
  };
  for (const el of [user.input, pass.input, remember]) el.addEventListener('input', sync);
  user.input.addEventListener('input', () => rules[0]!());
  pass.input.addEventListener('input', () => rules[1]!());

  let busy = false;
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    touched = true;
    sync();
    if (!values.username.trim() || !values.password || busy) return;
    busy = true;
    submit.setBusy(true);
    opts.onError(undefined);
    submitLogin(values, opts.next)
      .then(opts.onAnswer)
      .catch(() => opts.onError(t('networkError')))
      .finally(() => {
        busy = false;
        submit.setBusy(false);
      });
  });
  return { el: form, focus: () => user.input.focus() };
}
