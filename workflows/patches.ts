/**
 * Patch ids (`patched()`): each names a change of workflow code that
 * executions started before it replay without.
 */

/**
 * Webhook deliveries started from here on carry their event kind and mirror
 * their state in search attributes (so visibility can filter and count them),
 * and count an attempt whose activity did not complete (worker crash,
 * database error) as a failed attempt instead of failing the whole delivery.
 */
export const DELIVERY_STATE_PATCH = 'webhook-delivery-state';

/**
 * Publications started from here on pass each send its reserved slot (it
 * checks the slot again right before it goes, and takes the next free one when
 * it missed it), wake shortly before the slot, and wait again for a missed one.
 */
export const SEND_WINDOW_PATCH = 'publication-send-window';

/**
 * Publications started from here on reserve no slot for a group that
 * beginPublication found unpaced (`paced: false`): its send goes at once,
 * one activity per group instead of two.
 */
export const UNPACED_SEND_PATCH = 'publication-unpaced-send';

/**
 * Publications started from here on run beginPublication and
 * completePublication as local activities (markers in the history, no task
 * queue round trip): a single-group publication schedules one activity, its send.
 */
export const LOCAL_STEPS_PATCH = 'publication-local-steps';

/**
 * Publications started from here on record the sends to unpaced groups in
 * batches: each send reports what it did instead of writing its delivery
 * (`deferred`), and the workflow writes many at once (recordSentDeliveries,
 * then completePublication with the rest), which also reads none of them back.
 */
export const SENT_BATCHES_PATCH = 'publication-sent-batches';

/**
 * Publications queued from here on are started with their groups in the
 * workflow's input (ids, names, pacing), and their request moves them to
 * `sending`: no beginPublication. Starts without groups (publications queued
 * before, a repeated request, the sweep of queued ones, a fan-out too large
 * for the input) begin as before.
 */
export const GROUPS_IN_INPUT_PATCH = 'publication-groups-in-input';

/**
 * Publications started from here on whose one group is unpaced have their
 * send complete them (deliverToGroup with `complete`): no completePublication
 * local activity after it, unless the send could not complete it.
 */
export const SEND_COMPLETES_PATCH = 'publication-send-completes';

/**
 * Publications started from here on take every path of the six patches
 * above at once (send window, unpaced send, local steps, sent batches, groups
 * in the input, send completes) behind this one: a single marker in the
 * history instead of six (each marker also upserts a search attribute: ten
 * history events fewer in a publication's first workflow task). Histories
 * recorded before it replay through each patch as they did.
 */
export const PUBLICATION_PATCHES_PATCH = 'publication-patches-2026-11';

/**
 * Publications started from here on send to their unpaced groups in chunks
 * (deliverToGroups, SEND_CHUNK groups per activity) when there are several,
 * and send a group on its own (deliverToGroup) only when its chunk did not
 * send it. Asked after PUBLICATION_PATCHES_PATCH, in fan-outs only.
 */
export const CHUNKED_SENDS_PATCH = 'publication-chunked-sends';

/**
 * Dispatches from here on also start the executions of the active journeys
 * the event triggers and signal the running executions of the conversation of
 * an inbound message (`journeyTargets`).
 */
export const JOURNEYS_PATCH = 'dispatch-journeys';
