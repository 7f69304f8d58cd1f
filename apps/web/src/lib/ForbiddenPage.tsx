import { Button, Result } from 'antd';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';

/** Shown in place of a page the user may not see ("no permission to view the page"). */
export function ForbiddenPage() {
  const { t } = useTranslation();
  return (
    <Result
      status="403"
      title="403"
      subTitle={t('shell.forbidden')}
      data-testid="forbidden"
      extra={
        <Link to="/">
          <Button type="primary">{t('shell.backHome')}</Button>
        </Link>
      }
    />
  );
}
