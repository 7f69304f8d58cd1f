import { Col, Flex, Row } from 'antd';
import { AssignedTicketsCard } from './AssignedTicketsCard.tsx';
import { GrantedAssetsCard } from './myAssets/GrantedAssetsCard.tsx';
import { RecentLoginsCard } from './RecentLoginsCard.tsx';
import { RecentSessionsCard } from './RecentSessionsCard.tsx';
import { UserCard } from './UserCard.tsx';

/**
 * `/workbench/home` (console reference 3.14): the user card and the count of granted assets
 * beside the user's recent sessions, the tickets waiting for their decision (licence and
 * permission) and their recent logins.
 */
export function WorkbenchHomePage() {
  return (
    <Row gutter={[16, 16]} data-testid="workbench-home">
      <Col xs={24} lg={8}>
        <Flex vertical gap={16}>
          <UserCard />
          <GrantedAssetsCard />
        </Flex>
      </Col>
      <Col xs={24} lg={16}>
        <Flex vertical gap={16}>
          <RecentSessionsCard />
          <AssignedTicketsCard />
          <RecentLoginsCard />
        </Flex>
      </Col>
    </Row>
  );
}
