import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { Transaction } from '../../../shared/domain/transaction';
import type { RowInsert } from '../../../shared/domain/row-insert';
import { WebhooksSql } from '../../webhooks/sql';
import type { OperationReceiptView } from '../domain/operation-receipt';
import { ReceiptRepository } from '../domain/receipt.repository';
import type { Environment } from '../../../shared/domain/caller-context';

interface Row {
  id: string;
  kind: OperationReceiptView['kind'];
  status: 'completed';
  resource_type: OperationReceiptView['resource']['type'];
  resource_id: string;
  completed_at: Date;
  environment: OperationReceiptView['environment'];
}

const RECEIPT_COLUMNS = [
  ['organization_id', 'uuid'],
  ['id', 'uuid'],
  ['environment', 'text'],
  ['app_id', 'uuid'],
  ['kind', 'text'],
  ['status', 'text'],
  ['resource_type', 'text'],
  ['resource_id', 'uuid'],
  ['completed_at', 'timestamptz'],
] as const;

@Injectable()
export class PgReceiptRepository extends ReceiptRepository {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  rowsFor(s: { organizationId: string; appId: string; environment: Environment }, r: OperationReceiptView, event: { id: string; body: string }): RowInsert[] {
    return [
      {
        table: 'operation_receipts',
        columns: RECEIPT_COLUMNS,
        values: [s.organizationId, r.operation_id, s.environment, s.appId, r.kind, r.status, r.resource.type, r.resource.id, r.completed_at],
      },
      WebhooksSql.outboxRow({
        organizationId: s.organizationId,
        id: event.id,
        environment: s.environment,
        appId: s.appId,
        eventType: 'operation.completed',
        body: event.body,
        createdAt: r.completed_at,
      }),
    ];
  }

  async find(s: { organizationId: string; appId: string; environment: Environment }, operationId: string): Promise<OperationReceiptView | null> {
    const rows: Row[] = await this.dataSource.query(
      `SELECT id, kind, status, resource_type, resource_id, completed_at, environment FROM operation_receipts
        WHERE organization_id = $1 AND id = $2 AND app_id = $3 AND environment = $4`,
      [s.organizationId, operationId, s.appId, s.environment],
    );
    const r = rows[0];
    if (!r) return null;
    return {
      operation_id: r.id,
      kind: r.kind,
      status: r.status,
      resource: { type: r.resource_type, id: r.resource_id },
      completed_at: new Date(r.completed_at).toISOString(),
      environment: r.environment,
    };
  }

  async lastOperations(m: Transaction, organizationId: string, appIds: string[]): Promise<Map<string, Date>> {
    if (appIds.length === 0) return new Map();
    const rows: Array<{ app_id: string; at: Date | string }> = await (m as EntityManager).query(
      `SELECT app_id, max(completed_at) AS at FROM operation_receipts
        WHERE organization_id = $1 AND environment = 'production' AND app_id = ANY($2::uuid[]) GROUP BY app_id`,
      [organizationId, appIds],
    );
    return new Map(rows.map((r) => [r.app_id, r.at instanceof Date ? r.at : new Date(r.at)]));
  }
}
