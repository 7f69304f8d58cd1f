import type { CategoryValue } from '@gatehouse/contract';
import type { FieldSpec } from '../../../../resource/FormField.tsx';
import type { FormGroup } from '../../../../resource/ResourceForm.tsx';

/** What each category adds to the asset form. */
interface CategoryForm {
  /** Fields appended to the Basic group. */
  basic?: string[];
  /** Groups inserted after Protocol. */
  groups?: FormGroup[];
  fieldsMeta?: Record<string, FieldSpec>;
  /** Starting values on create. */
  initial?: Record<string, unknown>;
}

const sslOnly = (v: Record<string, unknown>) => !v.use_ssl;
/** Database types whose client certificate and key are asked. */
const CLIENT_CERT_TYPES = ['redis', 'mysql', 'mariadb', 'mongodb'];

export function categoryForm(
  category: CategoryValue,
  type: string | undefined,
  t: (k: string) => string,
): CategoryForm {
  switch (category) {
    case 'database': {
      const clientCert = (v: Record<string, unknown>) => sslOnly(v) || !CLIENT_CERT_TYPES.includes(type ?? '');
      return {
        basic: ['db_name'],
        groups: [
          {
            title: 'assets.group.Secure',
            fields: ['use_ssl', 'ca_cert', 'client_cert', 'client_key', 'allow_invalid_cert'],
          },
        ],
        fieldsMeta: {
          db_name: {
            rules: ['mongodb', 'postgresql'].includes(type ?? '')
              ? [{ required: true, message: t('resource.form.required') }]
              : [],
          },
          ca_cert: { hidden: sslOnly, widget: 'textarea' },
          client_cert: { hidden: clientCert, widget: 'textarea' },
          client_key: { hidden: clientCert, widget: 'textarea' },
          allow_invalid_cert: { hidden: sslOnly },
        },
      };
    }
    case 'web':
      return {
        groups: [
          {
            title: 'assets.group.Selector',
            fields: ['autofill', 'username_selector', 'password_selector', 'submit_selector', 'script'],
          },
        ],
        fieldsMeta: {
          username_selector: { hidden: (v) => v.autofill !== 'basic' },
          password_selector: { hidden: (v) => v.autofill !== 'basic' },
          submit_selector: { hidden: (v) => v.autofill !== 'basic' },
          script: { hidden: (v) => v.autofill !== 'script' },
        },
      };
    case 'gpt':
      return {
        groups: [{ title: 'assets.group.Proxy', fields: ['proxy'] }],
        initial: { address: 'https://api.openai.com/v1/' },
      };
    case 'custom':
      return { groups: [{ title: 'assets.group.CustomInfo', fields: ['custom_info'] }] };
    default:
      return {};
  }
}
