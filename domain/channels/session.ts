/**
 * A WhatsApp gateway's session that is down, as sends see it
 * (docs/guides/whatsapp.md, "When the session is down"). A send refused as
 * not connected marks its channel down; from then on no send to that channel
 * reaches the gateway: once its back-off is due (10 s, doubling to 5 min),
 * one send claims the check and asks the gateway for the session's state,
 * and the others wait for that answer. A state reported by the gateway's
 * webhook or a check (`recordChannelState`) ends the wait at the next wake.
 */
import { Db } from 'mongodb';
import { Tenant } from '../db';
import { gatewayFor } from './connectors/index';
import { ConnectorError } from './connectors/types';
import { recordChannelState } from './service';
import { sessionCheckPauseMs } from './session-timing';
import { ChannelConfig, claimSessionCheck, getChannel, SessionDown } from './store';

/** How long a send waits for a check another send is making before it looks again. */
const CHECK_IN_PROGRESS_MS = 3000;

/** A send not tried because the session is down: no attempt, waited for `retryAfterMs` (the next check, or the one under way). */
const notConnected = (channel: ChannelConfig, retryAfterMs: number): ConnectorError =>
  new ConnectorError(
    channel.type === 'evolution' ? 'the instance is not connected to WhatsApp' : 'the WAHA session is not connected',
    false,
    undefined,
    Math.max(1000, retryAfterMs),
    true,
  );

/** How long until `down`'s next check, or until the one under way has had time to answer. */
function untilNextCheck(down: SessionDown, now: number): number {
  const inProgress = down.checked_at && now - down.checked_at.getTime() < CHECK_IN_PROGRESS_MS;
  return inProgress ? CHECK_IN_PROGRESS_MS : down.check_at.getTime() - now;
}

/**
 * Lets a send to `channel` go unless its session is known to be down:
 * then throws a `disconnected` ConnectorError saying when to look again,
 * unless this send claimed the check that is due and the gateway says the
 * session is connected again.
 */
export async function passSessionGate(db: Db, tenant: Tenant, channel: ChannelConfig): Promise<void> {
  const down = channel.session;
  if (!down) return;
  const now = new Date();
  if (down.check_at > now) throw notConnected(channel, untilNextCheck(down, now.getTime()));
  const claimed = await claimSessionCheck(db, tenant, channel.id, down, sessionCheckPauseMs(down.checks + 1), now);
  if (!claimed) {
    // Another send took this check (or a report changed the state): follow what it recorded.
    const current = (await getChannel(db, tenant, channel.id))?.session;
    if (current) throw notConnected(channel, untilNextCheck(current, Date.now()));
    return;
  }
  const state = await gatewayFor(channel)
    .sessionState()
    .catch(() => 'unknown' as const); // a gateway that does not answer the check is still down: it is asked at the next one
  if (state === 'connected') {
    await recordChannelState(db, tenant, channel.id, 'connected');
    return;
  }
  throw notConnected(channel, (claimed.session?.check_at.getTime() ?? Date.now()) - Date.now());
}

/** Marks `channel`'s session down after a send was refused as not connected; the error to hand on, saying when to look again. */
export async function sessionRefused(db: Db, tenant: Tenant, channel: ChannelConfig, err: ConnectorError): Promise<ConnectorError> {
  const after = await recordChannelState(db, tenant, channel.id, 'disconnected');
  const next = after.session?.check_at.getTime() ?? Date.now() + sessionCheckPauseMs(0);
  return new ConnectorError(err.message, false, err.status, Math.max(1000, next - Date.now()), true);
}
