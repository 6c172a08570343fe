/**
 * A journey's executions, straight from Temporal visibility (no copy in
 * MongoDB): the workflows `journey-<jrn>-<evt>` with their search attributes
 * (state, current block) and memo (the event, the version, the error).
 */
import { WorkflowExecutionInfo } from '@temporalio/client';
import { Schema } from '../../schemas/types';
import { Page, PageResult, Tenant } from '../db';
import { DomainDeps } from '../resource';
import { OfferopsState, OfferopsStep } from '../../temporal/names';
import { ExecutionMemo } from '../../temporal/workflows';

export type ExecutionStatus = Schema<'JourneyExecutionStatus'>;

/** The visibility terms of each status: Temporal's own close status, and ours for a workflow that ended by itself. */
const STATUS_TERMS: Record<ExecutionStatus, string> = {
  running: `ExecutionStatus = 'Running'`,
  completed: `ExecutionStatus = 'Completed' AND OfferopsState = 'completed'`,
  failed: `(ExecutionStatus = 'Failed' OR (ExecutionStatus = 'Completed' AND OfferopsState = 'failed'))`,
  cancelled: `ExecutionStatus = 'Canceled'`,
  terminated: `ExecutionStatus = 'Terminated'`,
  timed_out: `ExecutionStatus = 'TimedOut'`,
};

/** The visibility query of a journey's executions (ids the contract validated: none can carry a quote). */
export function executionsQuery(tenant: Tenant, journeyId: string, status?: ExecutionStatus): string {
  const terms = [
    `OfferopsKind = 'journey_execution'`,
    `OfferopsAccountId = '${tenant.accountId}'`,
    `OfferopsEnvironment = '${tenant.env}'`,
    `OfferopsResourceId = '${journeyId}'`,
  ];
  for (const term of terms) if (!/^\w+ = '[\w.-]+'$/.test(term)) throw new Error(`unsafe visibility term ${term}`);
  return [...terms, ...(status ? [STATUS_TERMS[status]] : [])].join(' AND ');
}

function statusOf(e: WorkflowExecutionInfo): ExecutionStatus {
  switch (e.status.name) {
    case 'RUNNING':
    case 'CONTINUED_AS_NEW':
      return 'running';
    case 'COMPLETED':
      return e.typedSearchAttributes.get(OfferopsState) === 'failed' ? 'failed' : 'completed';
    case 'CANCELLED':
      return 'cancelled';
    case 'TERMINATED':
      return 'terminated';
    case 'TIMED_OUT':
      return 'timed_out';
    default:
      return 'failed';
  }
}

export function toExecution(journeyId: string, e: WorkflowExecutionInfo) {
  const memo = e.memo?.execution as ExecutionMemo | undefined;
  const status = statusOf(e);
  return {
    id: e.workflowId,
    journey_id: journeyId,
    conversation_id: memo?.conversation_id ?? null,
    status,
    current_step: status === 'running' ? (e.typedSearchAttributes.get(OfferopsStep) ?? null) : null,
    event_id: memo?.event_id ?? '',
    event_kind: memo?.event_kind ?? '',
    version: memo?.version ?? 1,
    error: memo?.error ?? (status === 'failed' ? 'the execution failed' : null),
    started_at: e.startTime.toISOString(),
    closed_at: e.closeTime ? e.closeTime.toISOString() : null,
  };
}

export type Execution = ReturnType<typeof toExecution>;

/** One page of visibility's list (running first, then the most recently closed); `total` is visibility's count. */
export async function listExecutions(
  deps: DomainDeps,
  tenant: Tenant,
  journeyId: string,
  status: ExecutionStatus | undefined,
  page: Page,
): Promise<PageResult<Execution>> {
  const query = executionsQuery(tenant, journeyId, status);
  const { client } = deps.temporal;
  const items: Execution[] = [];
  let seen = 0;
  for await (const execution of client.workflow.list({ query, pageSize: Math.min(1000, page.offset + page.limit) })) {
    if (seen++ < page.offset) continue;
    items.push(toExecution(journeyId, execution));
    if (items.length === page.limit) break;
  }
  const { count } = await client.workflow.count(query);
  return { items, total: Math.max(count, page.offset + items.length) };
}
