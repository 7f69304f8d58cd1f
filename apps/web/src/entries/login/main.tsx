import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { ConfigProvider } from 'antd';
import type { Language } from '@gatehouse/contract';
import { antdLocale, initI18n } from '../../lib/i18n/index.ts';
import { antdTheme } from '../../lib/theme.ts';
import { LoginPage } from './LoginPage.tsx';

function LoginApp() {
  const [, setLang] = useState<Language>();
  return (
    <ConfigProvider theme={antdTheme()} locale={antdLocale()}>
      <LoginPage onLanguage={setLang} />
    </ConfigProvider>
  );
}

void initI18n()
  .catch(() => undefined)
  .then(() =>
    createRoot(document.getElementById('root')!).render(
      <StrictMode>
        <LoginApp />
      </StrictMode>,
    ),
  );
