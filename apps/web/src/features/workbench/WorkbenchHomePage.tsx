import { Col, Row } from 'antd';
import { GrantedAssetsCard } from './myAssets/GrantedAssetsCard.tsx';
import { RecentLoginsCard } from './RecentLoginsCard.tsx';
import { UserCard } from './UserCard.tsx';

/**
 * `/workbench/home`: the user card, the count of granted assets and the recent logins. The recent
 * sessions and assigned-tickets cards come with the terminal and ticket areas.
 */
export function WorkbenchHomePage() {
  return (
    <Row gutter={[16, 16]} data-testid="workbench-home">
      <Col xs={24} lg={8}>
        <UserCard />
        <div style={{ height: 16 }} />
        <GrantedAssetsCard />
      </Col>
      <Col xs={24} lg={16}>
        <RecentLoginsCard />
      </Col>
    </Row>
  );
}
