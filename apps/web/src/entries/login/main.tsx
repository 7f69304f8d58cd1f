import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { ConfigProvider } from 'antd';
import type { Language } from '@gatehouse/contract';
import { initI18n, detectLanguage } from '../../lib/i18n/index.ts';
import { antdTheme } from '../../lib/theme.ts';
import { ANTD_LOCALES } from '../../lib/antdLocale.ts';
import { LoginPage } from './LoginPage.tsx';

initI18n();

function LoginApp() {
  const [lang, setLang] = useState<Language>(detectLanguage());
  return (
    <ConfigProvider theme={antdTheme()} locale={ANTD_LOCALES[lang]}>
      <LoginPage onLanguage={setLang} />
    </ConfigProvider>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <LoginApp />
  </StrictMode>,
);
