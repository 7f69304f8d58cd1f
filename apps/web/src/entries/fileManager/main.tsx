import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App as AntApp, ConfigProvider } from 'antd';
import { antdLocale, initI18n } from '../../lib/i18n/index.ts';
import { FileManagerPage } from './FileManagerPage.tsx';

/**
 * The web file manager's entry (filemanager.html, served at /koko/elfinder/sftp/ to signed-in
 * users): `?token=<connection token id>` opens it at once, `?asset=<id>` asks for the account first,
 * neither lists the user's assets to choose from.
 */
void initI18n()
  .catch(() => undefined)
  .then(() =>
    createRoot(document.getElementById('root')!).render(
      <StrictMode>
        <ConfigProvider locale={antdLocale()}>
          <AntApp>
            <FileManagerPage search={window.location.search} />
          </AntApp>
        </ConfigProvider>
      </StrictMode>,
    ),
  );
