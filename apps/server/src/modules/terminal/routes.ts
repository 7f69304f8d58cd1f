import type { FastifyInstance } from 'fastify';
import { commandResource } from './commandResource.ts';
import { ftpLogResource } from './ftpLogResource.ts';
import { registerGatewayInstance } from './gatewayInstance.ts';
import { registerReadOnly } from './readOnlyRoutes.ts';
import { registerReplayRoutes } from './replayRoutes.ts';
import { mySessionResource, sessionResource } from './sessionResource.ts';
import { registerTaskRoutes } from './taskRoutes.ts';
import { registerConnectMethodRoutes } from './tokens/connectMethods.ts';
import { registerConnectionTokenCreateRoutes } from './tokens/connectionTokenRoutes.ts';
import { registerSuperConnectionTokenRoutes } from './tokens/superConnectionTokenRoutes.ts';
import { registerWebTerminalSocket } from './webTerminalSocket.ts';
import { registerMonitorSocket } from './monitorSocket.ts';
import { registerPlayerPages } from './playerPageRoutes.ts';
import { joinRecordResource } from './joinRecordResource.ts';
import { terminalResource } from './terminalResource.ts';
import { registerSshServer } from './ssh/sshServer.ts';
import { registerDbProxies } from './database/dbServers.ts';
import { registerFtpFileRoutes } from './sftp/ftpFileRoutes.ts';
import { registerWebSftpRoutes } from './sftp/webSftpRoutes.ts';
import { registerSharingRoutes } from './sharing/sharingRoutes.ts';
import { registerJoinValidateRoute } from './sharing/joinValidateRoute.ts';
import { registerK8sTreeRoutes } from './k8s/k8sTreeRoutes.ts';
import { registerGraphicalSocket } from './graphical/graphicalSocket.ts';
import { registerStorageRoutes } from './storage/storageRoutes.ts';
import { registerComponentMetrics } from './componentMetrics.ts';
import { registerAppletRoutes } from './applets/appletRoutes.ts';
import { registerAppletHostRoutes } from './applets/appletHostRoutes.ts';

/** The gateway's module (issue 17): its records, replays, live control, and the built-in gateway itself. */
export function registerTerminalModule(app: FastifyInstance): void {
  registerGatewayInstance(app);
  // '*': any signed-in user, narrowed to their own rows. Registered first so that the model name
  // keeps naming the full list (`defOf('session')`), as the login logs do.
  registerReadOnly(app, mySessionResource, '*');
  registerReadOnly(app, sessionResource, 'terminal.view_session');
  registerReadOnly(app, commandResource, 'terminal.view_command');
  registerReadOnly(app, ftpLogResource, 'audits.view_ftplog');
  registerReadOnly(app, terminalResource, 'terminal.view_terminal');
  registerReadOnly(app, joinRecordResource, 'terminal.view_session');
  registerSharingRoutes(app);
  registerJoinValidateRoute(app);
  registerReplayRoutes(app);
  registerTaskRoutes(app);
  registerConnectionTokenCreateRoutes(app);
  registerSuperConnectionTokenRoutes(app);
  registerConnectMethodRoutes(app);
  registerWebTerminalSocket(app);
  registerMonitorSocket(app);
  registerPlayerPages(app);
  registerSshServer(app);
  registerDbProxies(app);
  registerFtpFileRoutes(app);
  registerWebSftpRoutes(app);
  registerK8sTreeRoutes(app);
  registerGraphicalSocket(app);
  registerStorageRoutes(app);
  registerComponentMetrics(app);
  registerAppletRoutes(app);
  registerAppletHostRoutes(app);
}
