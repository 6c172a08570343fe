/* Generated from schemas/openapi.json by `npm run openapi` (openapi-typescript): do not edit. */
export interface paths {
    "/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The account and the actor (key or application) bound to the credential
         * @description Needs the `account:read` scope.
         *
         *     **State rules**: none beyond the schemas (and authentication, scope, rate limit, idempotency keys).
         */
        get: operations["account_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/offers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List offers, newest first; archived offers only with status=archived
         * @description Needs the `offers:read` scope.
         *
         *     **State rules**: none beyond the schemas (and authentication, scope, rate limit, idempotency keys).
         */
        get: operations["offers_list"];
        put?: never;
        /**
         * Create a pending offer (idempotent by URL)
         * @description When an offer with the same url exists in this account and environment it is returned unchanged with `created: false` (status 200); nothing is overwritten and nothing is published. `status`, when sent, must be `pending`.
         *
         *     Needs the `offers:write` scope.
         *
         *     **State rules** (the schemas say everything about the request's shape; only these depend on the stored state): a `coupon_id` this account does not have → 400 `unknown_reference`.
         */
        post: operations["offer_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/offers/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Offer detail
         * @description Needs the `offers:read` scope.
         *
         *     **State rules** (the schemas say everything about the request's shape; only these depend on the stored state): an `id` that does not exist in the key's account and environment → 404 `not_found`.
         */
        get: operations["offer_get"];
        put?: never;
        post?: never;
        /**
         * Archive the offer (history kept)
         * @description Needs the `offers:write` scope.
         *
         *     **State rules** (the schemas say everything about the request's shape; only these depend on the stored state): an `id` that does not exist in the key's account and environment → 404 `not_found`.
         */
        delete: operations["offer_archive"];
        options?: never;
        head?: never;
        /**
         * Update only the fields sent
         * @description Needs the `offers:write` scope.
         *
         *     **State rules** (the schemas say everything about the request's shape; only these depend on the stored state): an `id` that does not exist in the key's account and environment → 404 `not_found`; a `status` move the current status does not allow (see `OfferStatus`) → 400 `invalid_transition`; any change to an archived offer other than restoring it to `pending` → 409 `offer_archived`; a `coupon_id` this account does not have → 400 `unknown_reference`.
         */
        patch: operations["offer_update"];
        trace?: never;
    };
    "/offers/{id}/preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Assemble the final message without sending it
         * @description Needs the `offers:read` scope.
         *
         *     **State rules** (the schemas say everything about the request's shape; only these depend on the stored state): an `id` that does not exist in the key's account and environment → 404 `not_found`; a `segment_id` or `template_id` this account does not have → 400 `unknown_reference`.
         */
        post: operations["offer_preview"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/offers/{id}/publish": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Queue a publication to an authorized group or segment
         * @description Needs the `publications:write` scope.
         *
         *     **State rules** (the schemas say everything about the request's shape; only these depend on the stored state): an `id` that does not exist in the key's account and environment → 404 `not_found`; an offer not `pending` or `approved`, or whose registered coupon expired or is inactive → 409 `offer_not_publishable`; an inactive or unconnected group, or a segment without an active connected group → 409 `destination_unavailable`; a `group_id` or `segment_id` this account does not have → 400 `unknown_reference`; without an `Idempotency-Key`, the same offer to the same destination as a publication still `queued` or `sending` answers that publication (a double click); while the request that queues it has not recorded it for 5 s → 409 `idempotency_in_progress`, naming it.
         */
        post: operations["offer_publish"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/groups": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List groups (no JIDs, sessions or credentials)
         * @description Needs the `groups:read` scope.
         *
         *     **State rules**: none beyond the schemas (and authentication, scope, rate limit, idempotency keys).
         */
        get: operations["groups_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/groups/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Safe operational configuration of a group
         * @description Needs the `groups:read` scope.
         *
         *     **State rules** (the schemas say everything about the request's shape; only these depend on the stored state): an `id` that does not exist in the key's account and environment → 404 `not_found`.
         */
        get: operations["group_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Update name, role, segment, capacity, automation, active
         * @description Needs the `groups:write` scope.
         *
         *     **State rules** (the schemas say everything about the request's shape; only these depend on the stored state): an `id` that does not exist in the key's account and environment → 404 `not_found`; a `segment_id` this account does not have → 400 `unknown_reference`.
         */
        patch: operations["group_update"];
        trace?: never;
    };
    "/segments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List segments
         * @description Needs the `segments:read` scope.
         *
         *     **State rules**: none beyond the schemas (and authentication, scope, rate limit, idempotency keys).
         */
        get: operations["segments_list"];
        put?: never;
        /**
         * Create a segment
         * @description Needs the `segments:write` scope.
         *
         *     **State rules** (the schemas say everything about the request's shape; only these depend on the stored state): a `slug` another segment uses → 409 `slug_taken`.
         */
        post: operations["segment_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/segments/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Segment detail
         * @description Needs the `segments:read` scope.
         *
         *     **State rules** (the schemas say everything about the request's shape; only these depend on the stored state): an `id` that does not exist in the key's account and environment → 404 `not_found`.
         */
        get: operations["segment_get"];
        put?: never;
        post?: never;
        /**
         * Delete a segment no group or schedule links to
         * @description A segment linked to groups or to schedules that may still run is refused with 409 `resource_in_use`; completed schedules (no run ahead) are history and do not hold it.
         *
         *     Needs the `segments:write` scope.
         *
         *     **State rules** (the schemas say everything about the request's shape; only these depend on the stored state): an `id` that does not exist in the key's account and environment → 404 `not_found`; a segment that groups or schedules which may still run link → 409 `resource_in_use`.
         */
        delete: operations["segment_delete"];
        options?: never;
        head?: never;
        /**
         * Update identity, distribution, presentation
         * @description Needs the `segments:write` scope.
         *
         *     **State rules** (the schemas say everything about the request's shape; only these depend on the stored state): an `id` that does not exist in the key's account and environment → 404 `not_found`; a `slug` another segment uses → 409 `slug_taken`.
         */
        patch: operations["segment_update"];
        trace?: never;
    };
    "/coupons": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List coupons (by default the active, verified ones)
         * @description Newest first. Without filters only `active`, verified coupons are listed; `status=any` and `verification=any` widen the list.
         *
         *     Needs the `coupons:read` scope.
         *
         *     **State rules**: none beyond the schemas (and authentication, scope, rate limit, idempotency keys).
         */
        get: operations["coupons_list"];
        put?: never;
        /**
         * Register a coupon
         * @description A code already registered for the same store and neither `inactive` nor `expired` is a 409 `conflict`.
         *
         *     Needs the `coupons:write` scope.
         *
         *     **State rules** (the schemas say everything about the request's shape; only these depend on the stored state): a `code` already registered, still valid, for the same store → 409 `conflict`.
         */
        post: operations["coupon_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/coupons/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Coupon rules and validity
         * @description Needs the `coupons:read` scope.
         *
         *     **State rules** (the schemas say everything about the request's shape; only these depend on the stored state): an `id` that does not exist in the key's account and environment → 404 `not_found`.
         */
        get: operations["coupon_get"];
        put?: never;
        post?: never;
        /**
         * Deactivate the coupon (history kept)
         * @description The coupon becomes `inactive` and stays readable; deactivating an inactive coupon changes nothing.
         *
         *     Needs the `coupons:write` scope.
         *
         *     **State rules** (the schemas say everything about the request's shape; only these depend on the stored state): an `id` that does not exist in the key's account and environment → 404 `not_found`.
         */
        delete: operations["coupon_deactivate"];
        options?: never;
        head?: never;
        /**
         * Update validity, discount, eligibility
         * @description Only the fields sent change. `expires_at` before `starts_at` is a 400 `validation_failed`; a change of code or store, a reactivation or a new validity that would make two live coupons share a code at one store is a 409 `conflict`.
         *
         *     Needs the `coupons:write` scope.
         *
         *     **State rules** (the schemas say everything about the request's shape; only these depend on the stored state): an `id` that does not exist in the key's account and environment → 404 `not_found`; a `code` already registered, still valid, for the same store → 409 `conflict`.
         */
        patch: operations["coupon_update"];
        trace?: never;
    };
    "/commissions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List commissions, newest order first
         * @description `from` after `to` is an empty window: no commissions.
         *
         *     Needs the `commissions:read` scope.
         *
         *     **State rules**: none beyond the schemas (and authentication, scope, rate limit, idempotency keys).
         */
        get: operations["commissions_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/commissions/summary": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Amounts grouped by currency and payment status
         * @description Over the orders placed in [`from`, `to`) when given (all time otherwise); `from` after `to` is a 400 `validation_failed` (its detail on `from`, rule `range`); `from` equal to `to` is an empty window.
         *
         *     Needs the `commissions:read` scope.
         *
         *     **State rules**: none beyond the schemas (and authentication, scope, rate limit, idempotency keys).
         */
        get: operations["commissions_summary"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/commissions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Commission with its amounts, attribution and history
         * @description Needs the `commissions:read` scope.
         *
         *     **State rules** (the schemas say everything about the request's shape; only these depend on the stored state): an `id` that does not exist in the key's account and environment → 404 `not_found`.
         */
        get: operations["commission_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/publications": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List sends, newest first
         * @description The history of publications of the account and environment, newest `queued_at` first.
         *
         *     Needs the `publications:read` scope.
         *
         *     **State rules**: none beyond the schemas (and authentication, scope, rate limit, idempotency keys).
         */
        get: operations["publications_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/publications/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Publication result (no channel session)
         * @description State of the publication and of each group delivery: attempts, error, sent time.
         *
         *     Needs the `publications:read` scope.
         *
         *     **State rules** (the schemas say everything about the request's shape; only these depend on the stored state): an `id` that does not exist in the key's account and environment → 404 `not_found`.
         */
        get: operations["publication_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/templates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List templates
         * @description Needs the `templates:read` scope.
         *
         *     **State rules**: none beyond the schemas (and authentication, scope, rate limit, idempotency keys).
         */
        get: operations["templates_list"];
        put?: never;
        /**
         * Create a reusable template
         * @description An unknown placeholder in `body` is a 400 `validation_failed`; a `segment_id` this account does not have is a 400 `unknown_reference`. With `is_default: true` the previous default of the same scope stops being the default.
         *
         *     Needs the `templates:write` scope.
         *
         *     **State rules** (the schemas say everything about the request's shape; only these depend on the stored state): a `segment_id` this account does not have → 400 `unknown_reference`; another template made the default of the same scope meanwhile → 409 `conflict`.
         */
        post: operations["template_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/templates/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Template body and configuration
         * @description Needs the `templates:read` scope.
         *
         *     **State rules** (the schemas say everything about the request's shape; only these depend on the stored state): an `id` that does not exist in the key's account and environment → 404 `not_found`.
         */
        get: operations["template_get"];
        put?: never;
        post?: never;
        /**
         * Delete a template no schedule uses
         * @description A template named by a schedule that may still run (active or paused) is refused with 409 `resource_in_use`; completed schedules are history and do not hold it.
         *
         *     Needs the `templates:write` scope.
         *
         *     **State rules** (the schemas say everything about the request's shape; only these depend on the stored state): an `id` that does not exist in the key's account and environment → 404 `not_found`; a template that schedules which may still run use → 409 `resource_in_use`.
         */
        delete: operations["template_delete"];
        options?: never;
        head?: never;
        /**
         * Update the fields sent
         * @description The same checks as on creation. Setting `is_default: true` (or moving a default template to another scope) clears the flag on the previous default of that scope.
         *
         *     Needs the `templates:write` scope.
         *
         *     **State rules** (the schemas say everything about the request's shape; only these depend on the stored state): an `id` that does not exist in the key's account and environment → 404 `not_found`; a `segment_id` this account does not have → 400 `unknown_reference`; another template made the default of the same scope meanwhile → 409 `conflict`.
         */
        patch: operations["template_update"];
        trace?: never;
    };
    "/schedules": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List future and recurring publications, soonest first
         * @description Ordered by `next_run_at` (schedules without one last) and filtered by `status` as recorded at the last change, run or read of each schedule; each item shows the scheduler's current view (and a read that finds it changed records it).
         *
         *     Needs the `schedules:read` scope.
         *
         *     **State rules**: none beyond the schemas (and authentication, scope, rate limit, idempotency keys).
         */
        get: operations["schedules_list"];
        put?: never;
        /**
         * Schedule an offer or a text for an ISO date-time
         * @description Needs the `schedules:write` scope.
         *
         *     **State rules** (the schemas say everything about the request's shape; only these depend on the stored state): an `offer_id`, `group_id`, `segment_id` or `template_id` this account does not have → 400 `unknown_reference`; an offer not `pending` or `approved` → 409 `offer_not_publishable`; a `run_at` not in the future → 400 `validation_failed` (rule `future`).
         */
        post: operations["schedule_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/schedules/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Destination, content, recurrence
         * @description Needs the `schedules:read` scope.
         *
         *     **State rules** (the schemas say everything about the request's shape; only these depend on the stored state): an `id` that does not exist in the key's account and environment → 404 `not_found`.
         */
        get: operations["schedule_get"];
        put?: never;
        post?: never;
        /**
         * Cancel and remove a future schedule
         * @description Only a schedule that still has runs ahead (`active` or `paused`) can be deleted; a `completed` one is history and is refused with 409 `conflict`. Publications it already queued are kept.
         *
         *     Needs the `schedules:write` scope.
         *
         *     **State rules** (the schemas say everything about the request's shape; only these depend on the stored state): an `id` that does not exist in the key's account and environment → 404 `not_found`; a `completed` schedule → 409 `conflict`.
         */
        delete: operations["schedule_delete"];
        options?: never;
        head?: never;
        /**
         * Change time, destination, recurrence, status
         * @description Needs the `schedules:write` scope.
         *
         *     **State rules** (the schemas say everything about the request's shape; only these depend on the stored state): an `id` that does not exist in the key's account and environment → 404 `not_found`; an `offer_id`, `group_id`, `segment_id` or `template_id` this account does not have → 400 `unknown_reference`; an offer not `pending` or `approved` → 409 `offer_not_publishable`; a `run_at` not in the future → 400 `validation_failed` (rule `future`); a `completed` schedule without a new future `run_at` (or a recurrence with runs ahead) → 409 `conflict`; a concurrent change of the same record → 409 `conflict` (read it again and retry).
         */
        patch: operations["schedule_update"];
        trace?: never;
    };
    "/schedules/{id}/run": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Run the schedule now
         * @description Queues the publication exactly as the scheduler would, now: it triggers the schedule, so the run is the same `scheduleRun` workflow the scheduler starts. Does not move `next_run_at` and works on a `paused` schedule too; a `completed` one is refused with 409 `conflict`. Answers once the run has queued its publication, with the `event_id` of the run (`schedule.ran`). A run the destination or content refuses answers with that error (e.g. 409 `destination_unavailable`) and is recorded as a failed run. When the run has not queued within the wait (no worker takes it), 503 `service_unavailable`: the run stays under way, and repeating the request waits for that same run instead of starting another (so does a request made while a scheduled run of this schedule is under way).
         *
         *     Needs the `publications:write` scope.
         *
         *     **State rules** (the schemas say everything about the request's shape; only these depend on the stored state): an `id` that does not exist in the key's account and environment → 404 `not_found`; a `completed` schedule → 409 `conflict`; what publish refuses (`offer_not_publishable`, `destination_unavailable`) → 409, recorded as a failed run.
         */
        post: operations["schedule_run"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/monitors": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List discovery rules
         * @description Needs the `monitors:read` scope.
         *
         *     **State rules**: none beyond the schemas (and authentication, scope, rate limit, idempotency keys).
         */
        get: operations["monitors_list"];
        put?: never;
        /**
         * Create a recurring search with commercial criteria
         * @description Creates the rule and its Temporal Schedule; an `active` monitor runs at its first time by `frequency`.
         *
         *     Needs the `monitors:write` scope.
         *
         *     **State rules** (the schemas say everything about the request's shape; only these depend on the stored state): an `automation.segment_id` or `automation.group_id` this account does not have → 400 `unknown_reference`; a source `url` whose host resolves to a loopback or private address the operator did not allow → 400 `validation_failed` (rule `destination`).
         */
        post: operations["monitor_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/monitors/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Criteria and last result
         * @description Needs the `monitors:read` scope.
         *
         *     **State rules** (the schemas say everything about the request's shape; only these depend on the stored state): an `id` that does not exist in the key's account and environment → 404 `not_found`.
         */
        get: operations["monitor_get"];
        put?: never;
        post?: never;
        /**
         * Remove the rule
         * @description Removes the rule and its Temporal Schedule; offers the monitor already created stay in the catalogue.
         *
         *     Needs the `monitors:write` scope.
         *
         *     **State rules** (the schemas say everything about the request's shape; only these depend on the stored state): an `id` that does not exist in the key's account and environment → 404 `not_found`; a monitor removed while the request ran → 409 `conflict`.
         */
        delete: operations["monitor_delete"];
        options?: never;
        head?: never;
        /**
         * Update criteria, frequency, automation
         * @description The Temporal Schedule follows the change.
         *
         *     Needs the `monitors:write` scope.
         *
         *     **State rules** (the schemas say everything about the request's shape; only these depend on the stored state): an `id` that does not exist in the key's account and environment → 404 `not_found`; an `automation.segment_id` or `automation.group_id` this account does not have → 400 `unknown_reference`; a source `url` whose host resolves to a loopback or private address the operator did not allow → 400 `validation_failed` (rule `destination`); a concurrent change of the same record → 409 `conflict` (read it again and retry).
         */
        patch: operations["monitor_update"];
        trace?: never;
    };
    "/store": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Public store configuration
         * @description Only what the public store shows and its address; no integration or payment settings.
         *
         *     Needs the `store:read` scope.
         *
         *     **State rules**: none beyond the schemas (and authentication, scope, rate limit, idempotency keys).
         */
        get: operations["store_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Update identity, theme, networks, address and availability
         * @description Needs the `store:write` scope.
         *
         *     **State rules** (the schemas say everything about the request's shape; only these depend on the stored state): a `subdomain` another store uses → 409 `slug_taken`; a concurrent change of the same record → 409 `conflict` (read it again and retry).
         */
        patch: operations["store_update"];
        trace?: never;
    };
    "/store/collections": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List editorial collections in public order
         * @description Ordered by `position`, ascending.
         *
         *     Needs the `store:read` scope.
         *
         *     **State rules**: none beyond the schemas (and authentication, scope, rate limit, idempotency keys).
         */
        get: operations["store_collections_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/store/pages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a Markdown page with its own SEO
         * @description Needs the `store:write` scope.
         *
         *     **State rules** (the schemas say everything about the request's shape; only these depend on the stored state): a `slug` another page of the store uses → 409 `slug_taken`.
         */
        post: operations["store_page_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/journeys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List flows with aggregate performance
         * @description Needs the `journeys:read` scope.
         *
         *     **State rules**: none beyond the schemas (and authentication, scope, rate limit, idempotency keys).
         */
        get: operations["journeys_list"];
        put?: never;
        /**
         * Create a safe visual automation (as a draft)
         * @description Needs the `journeys:write` scope.
         *
         *     **State rules** (the schemas say everything about the request's shape; only these depend on the stored state): a template, group or segment a block names that this account does not have → 400 `validation_failed` naming the block.
         */
        post: operations["journey_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/journeys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Blocks, channels, metrics
         * @description Needs the `journeys:read` scope.
         *
         *     **State rules** (the schemas say everything about the request's shape; only these depend on the stored state): an `id` that does not exist in the key's account and environment → 404 `not_found`.
         */
        get: operations["journey_get"];
        put?: never;
        post?: never;
        /**
         * Delete a journey that never executed
         * @description A journey with executions (`executions` > 0) is refused with 409 `resource_in_use`; pause it instead.
         *
         *     Needs the `journeys:write` scope.
         *
         *     **State rules** (the schemas say everything about the request's shape; only these depend on the stored state): an `id` that does not exist in the key's account and environment → 404 `not_found`; a journey that has executions → 409 `resource_in_use` (pause it instead).
         */
        delete: operations["journey_delete"];
        options?: never;
        head?: never;
        /**
         * Update graph and rules
         * @description Needs the `journeys:write` scope.
         *
         *     **State rules** (the schemas say everything about the request's shape; only these depend on the stored state): an `id` that does not exist in the key's account and environment → 404 `not_found`; a template, group or segment a block names that this account does not have → 400 `validation_failed` naming the block.
         */
        patch: operations["journey_update"];
        trace?: never;
    };
    "/journeys/{id}/activate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Activate or pause
         * @description Body `{"active": true}` (or no body) activates, `{"active": false}` pauses. Only an active journey starts executions; pausing starts no new one, and executions already running finish on the graph they started with. Setting the state it already has changes nothing.
         *
         *     Needs the `journeys:write` scope.
         *
         *     **State rules** (the schemas say everything about the request's shape; only these depend on the stored state): an `id` that does not exist in the key's account and environment → 404 `not_found`.
         */
        post: operations["journey_activate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/journeys/{id}/executions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List executions: status, step, times
         * @description Served from Temporal visibility (the executions are workflows `journey-<jrn>-<evt>`): running ones first, then closed ones, the most recently closed first. Visibility trails a change by about a second.
         *
         *     Needs the `journeys:read` scope.
         *
         *     **State rules** (the schemas say everything about the request's shape; only these depend on the stored state): an `id` that does not exist in the key's account and environment → 404 `not_found`.
         */
        get: operations["journey_executions_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/inbox/conversations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List conversation metadata, latest activity first
         * @description Needs the `inbox:read` scope.
         *
         *     **State rules**: none beyond the schemas (and authentication, scope, rate limit, idempotency keys).
         */
        get: operations["conversations_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/inbox/conversations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Conversation context without direct contact data
         * @description Needs the `inbox:read` scope.
         *
         *     **State rules** (the schemas say everything about the request's shape; only these depend on the stored state): an `id` that does not exist in the key's account and environment → 404 `not_found`.
         */
        get: operations["conversation_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Assign, prioritise, change DU mode
         * @description Needs the `inbox:write` scope.
         *
         *     **State rules** (the schemas say everything about the request's shape; only these depend on the stored state): an `id` that does not exist in the key's account and environment → 404 `not_found`.
         */
        patch: operations["conversation_update"];
        trace?: never;
    };
    "/inbox/conversations/{id}/close": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * End the conversation and record an event
         * @description Closing a conversation that is already closed is a 409 `conflict`.
         *
         *     Needs the `inbox:write` scope.
         *
         *     **State rules** (the schemas say everything about the request's shape; only these depend on the stored state): an `id` that does not exist in the key's account and environment → 404 `not_found`; a conversation already closed → 409 `conflict`.
         */
        post: operations["conversation_close"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/inbox/conversations/{id}/messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Message history, newest first
         * @description Newest message first (time, then id). `limit`/`offset` page through it; pages do not move while new messages arrive when each next page is asked with `before` set to the last message id of the page before (offset then stays 0).
         *
         *     Needs the `inbox:read` scope.
         *
         *     **State rules** (the schemas say everything about the request's shape; only these depend on the stored state): an `id` that does not exist in the key's account and environment → 404 `not_found`.
         */
        get: operations["conversation_messages_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/inbox/conversations/{id}/reply": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Register an outbound reply for the channel connector
         * @description The message is stored as `queued` and its workflow `reply-<message id>` delivers it through the conversation's channel with the pacing and retries of publications; its `status` moves to `sent` or `failed` (with `error`) in the message history, with the event `message.sent` or `message.failed`. An open conversation becomes `pending` (waiting for the contact). A closed conversation is a 409 `conversation_closed`; a channel deleted, or no longer able to send (no gateway URL, no bot token), a 409 `channel_unavailable`.
         *
         *     Needs the `inbox:write` scope.
         *
         *     **State rules** (the schemas say everything about the request's shape; only these depend on the stored state): an `id` that does not exist in the key's account and environment → 404 `not_found`; a closed conversation → 409 `conversation_closed`; a channel that cannot send now → 409 `channel_unavailable`; a `template_id` or `offer_id` this account does not have → 400 `unknown_reference`.
         */
        post: operations["conversation_reply"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/inbox/contacts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Contact profiles, stage and interests (no phone or e-mail)
         * @description Latest seen first.
         *
         *     Needs the `inbox:read` scope.
         *
         *     **State rules**: none beyond the schemas (and authentication, scope, rate limit, idempotency keys).
         */
        get: operations["contacts_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/analytics/summary": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Publications, deliveries, failures, clicks, commissions
         * @description Needs the `analytics:read` scope.
         *
         *     **State rules**: none beyond the schemas (and authentication, scope, rate limit, idempotency keys).
         */
        get: operations["analytics_summary"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/analytics/timeseries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Posts, failures, clicks per day
         * @description Needs the `analytics:read` scope.
         *
         *     **State rules**: none beyond the schemas (and authentication, scope, rate limit, idempotency keys).
         */
        get: operations["analytics_timeseries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/analytics/groups": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Volume, delivery, errors per group
         * @description Groups with publications, clicks or commissions in the window, most publications first (then most clicks, then id).
         *
         *     Needs the `analytics:read` scope.
         *
         *     **State rules**: none beyond the schemas (and authentication, scope, rate limit, idempotency keys).
         */
        get: operations["analytics_groups"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/analytics/offers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Offers by publications, clicks, commissions
         * @description Offers with activity in the window, ordered by `sort`, descending (then id).
         *
         *     Needs the `analytics:read` scope.
         *
         *     **State rules**: none beyond the schemas (and authentication, scope, rate limit, idempotency keys).
         */
        get: operations["analytics_offers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/analytics/sources": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Publications, clicks, revenue per marketplace
         * @description Marketplaces with activity in the window, most clicks first (then most publications, then name).
         *
         *     Needs the `analytics:read` scope.
         *
         *     **State rules**: none beyond the schemas (and authentication, scope, rate limit, idempotency keys).
         */
        get: operations["analytics_sources"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/analytics/heatmap": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Clicks by weekday, hour, page element
         * @description Needs the `analytics:read` scope.
         *
         *     **State rules**: none beyond the schemas (and authentication, scope, rate limit, idempotency keys).
         */
        get: operations["analytics_heatmap"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/links/convert": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Convert a URL into an affiliate link using only this account's integrations
         * @description Short links of the marketplaces (amzn.to, a.co, mercadolivre.com/sec, s.shopee.com.br, shope.ee, s.click.aliexpress.com, divulgador.magalu.com) are resolved first, by the webhook rules (public addresses only). Others’ affiliate and tracking parameters are removed, then this account’s integration is applied, and a tracked link is stored. A host of no supported marketplace nor of this account's `other` integration (a URL template with its own `hosts`), or of another marketplace than the `marketplace` given, is a 400 `unknown_marketplace` (so whether a URL is accepted depends on the integrations, and for a short link on where it leads); a marketplace this account has no integration for is a 404 `integration_missing` naming it; a short link that cannot be followed is a 400 `link_unresolvable`; an `offer_id` of no offer of this account is a 400 `unknown_reference`. Records `link.created`.
         *
         *     Needs the `links:write` scope.
         *
         *     **State rules** (the schemas say everything about the request's shape; only these depend on the stored state): an `offer_id` this account does not have → 400 `unknown_reference`; a host of no supported marketplace nor of this account's `other` integration (its `hosts`), or of another marketplace than the `marketplace` given, judged where a short link leads → 400 `unknown_marketplace`; a marketplace this account has no integration for → 404 `integration_missing`; a short link that cannot be followed to a public address → 400 `link_unresolvable`.
         */
        post: operations["link_convert"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List destinations and events (never the secret)
         * @description Needs the `webhooks:read` scope.
         *
         *     **State rules**: none beyond the schemas (and authentication, scope, rate limit, idempotency keys).
         */
        get: operations["webhooks_list"];
        put?: never;
        /**
         * Create an HTTPS destination; the secret is revealed once
         * @description Deliveries are signed with the Standard Webhooks scheme (`webhook-id`, `webhook-timestamp`, `webhook-signature` headers; HMAC-SHA256 with the secret). The secret is in this response only.
         *
         *     Needs the `webhooks:write` scope.
         *
         *     **State rules** (the schemas say everything about the request's shape; only these depend on the stored state): a `url` whose host resolves to a loopback or private address the operator did not allow → 400 `validation_failed` (rule `destination`).
         */
        post: operations["webhook_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Safe configuration of a webhook
         * @description Needs the `webhooks:read` scope.
         *
         *     **State rules** (the schemas say everything about the request's shape; only these depend on the stored state): an `id` that does not exist in the key's account and environment → 404 `not_found`.
         */
        get: operations["webhook_get"];
        put?: never;
        post?: never;
        /**
         * Remove the destination and its delivery history
         * @description Deliveries stop at once (no attempt is made for a deleted webhook); their executions, those still retrying included, are then terminated and deleted from Temporal in the background, within seconds.
         *
         *     Needs the `webhooks:write` scope.
         *
         *     **State rules** (the schemas say everything about the request's shape; only these depend on the stored state): an `id` that does not exist in the key's account and environment → 404 `not_found`.
         */
        delete: operations["webhook_delete"];
        options?: never;
        head?: never;
        /**
         * Update URL, events, state (the secret is unchanged)
         * @description Needs the `webhooks:write` scope.
         *
         *     **State rules** (the schemas say everything about the request's shape; only these depend on the stored state): an `id` that does not exist in the key's account and environment → 404 `not_found`; a `url` whose host resolves to a loopback or private address the operator did not allow → 400 `validation_failed` (rule `destination`).
         */
        patch: operations["webhook_update"];
        trace?: never;
    };
    "/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Deliveries with attempts, HTTP status and errors
         * @description Served from Temporal (one workflow per event and webhook), not from a copy: deliveries still under way come first, then finished ones, the most recently finished first. Visibility is eventually consistent: a delivery appears, and changes state, within a second or so.
         *
         *     Needs the `webhooks:read` scope.
         *
         *     **State rules** (the schemas say everything about the request's shape; only these depend on the stored state): an `id` that does not exist in the key's account and environment → 404 `not_found`.
         */
        get: operations["webhook_deliveries_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description Identifier of the request, also sent as the X-Request-Id header. */
        RequestId: string;
        /** @description Identifier of the domain event the operation recorded. */
        EventId: string;
        /**
         * @description live data, or the isolated test sandbox
         * @enum {string}
         */
        Environment: "live" | "test";
        Pagination: {
            total: number;
            limit: number;
            offset: number;
            has_more: boolean;
        };
        ErrorDetail: {
            /** @enum {string} */
            location: "path" | "query" | "body" | "header";
            /** @description JSON-pointer-like path of the field, empty for the whole location */
            field: string;
            /** @description the constraint that failed, e.g. maxLength, required, additionalProperties */
            rule: string;
            message: string;
        };
        Error: {
            /**
             * @description Stable machine-readable code; docs/api-conventions.md ("Error codes") gives the meaning of each.
             * @enum {string}
             */
            code: "invalid_request" | "validation_failed" | "malformed_json" | "body_not_allowed" | "invalid_transition" | "unknown_reference" | "unknown_marketplace" | "link_unresolvable" | "missing_api_key" | "invalid_api_key" | "expired_api_key" | "revoked_api_key" | "expired_token" | "revoked_token" | "invalid_signature" | "plan_required" | "insufficient_scope" | "not_found" | "route_not_found" | "integration_missing" | "method_not_allowed" | "request_timeout" | "conflict" | "resource_in_use" | "slug_taken" | "offer_archived" | "offer_not_publishable" | "destination_unavailable" | "idempotency_key_reused" | "idempotency_in_progress" | "conversation_closed" | "channel_unavailable" | "payload_too_large" | "unsupported_media_type" | "rate_limited" | "header_too_large" | "internal_error" | "not_implemented" | "service_unavailable";
            /** @description Human-readable explanation; never contains secrets. */
            message: string;
            request_id: components["schemas"]["RequestId"];
            /** @description Present on validation errors: each invalid field, in the order of the request, the first 20 when there are more (`details_omitted` says how many more). At most 20 items. */
            details?: components["schemas"]["ErrorDetail"][];
            /** @description Present when `details` was cut to its first 20: how many further details there were. */
            details_omitted?: number;
        };
        Account: {
            id: string;
            name: string;
            /**
             * @description `free` has no API access (402); `pro` and `business` do.
             * @enum {string}
             */
            plan: "free" | "pro" | "business";
            /** @description whether the plan includes this API */
            api_access: boolean;
            environment: components["schemas"]["Environment"];
            /**
             * Format: date-time
             * @description when the account was created
             */
            created_at: string;
        };
        /** @description The credential of the request: an API key, or an access token of an application (docs/api-conventions.md, "Applications and tokens"). */
        Actor: components["schemas"]["KeyActor"] | components["schemas"]["ApplicationActor"];
        KeyActor: {
            /** @enum {string} */
            type: "api_key";
            key_id: string;
            name: string;
            /** @description the first characters of the key, enough to recognise it; never the secret */
            prefix: string;
            scopes: ("account:read" | "offers:read" | "offers:write" | "publications:read" | "publications:write" | "groups:read" | "groups:write" | "segments:read" | "segments:write" | "coupons:read" | "coupons:write" | "commissions:read" | "templates:read" | "templates:write" | "schedules:read" | "schedules:write" | "monitors:read" | "monitors:write" | "store:read" | "store:write" | "journeys:read" | "journeys:write" | "inbox:read" | "inbox:write" | "analytics:read" | "links:write" | "webhooks:read" | "webhooks:write")[];
            environment: components["schemas"]["Environment"];
            /**
             * Format: date-time
             * @description when the key stops working; null for no expiry
             */
            expires_at: string | null;
        };
        ApplicationActor: {
            /** @enum {string} */
            type: "application";
            /** @description the application's id, which is its client_id */
            application_id: string;
            name: string;
            /** @description the scopes of this token */
            scopes: ("account:read" | "offers:read" | "offers:write" | "publications:read" | "publications:write" | "groups:read" | "groups:write" | "segments:read" | "segments:write" | "coupons:read" | "coupons:write" | "commissions:read" | "templates:read" | "templates:write" | "schedules:read" | "schedules:write" | "monitors:read" | "monitors:write" | "store:read" | "store:write" | "journeys:read" | "journeys:write" | "inbox:read" | "inbox:write" | "analytics:read" | "links:write" | "webhooks:read" | "webhooks:write")[];
            environment: components["schemas"]["Environment"];
            /**
             * Format: date-time
             * @description when this token stops working (one hour after the exchange)
             */
            expires_at: string;
        };
        Me: {
            account: components["schemas"]["Account"];
            actor: components["schemas"]["Actor"];
        };
        /**
         * @description Curation state. Created as `pending`. Moves: pending → approved | rejected; approved → pending | rejected; rejected → pending | approved; archived → pending (restore). `archived` is reached only through DELETE. Any other move is a 400 `invalid_transition`; changing fields of an archived offer is a 409 `offer_archived`.
         * @enum {string}
         */
        OfferStatus: "pending" | "approved" | "rejected" | "archived";
        /** @description Fields of a new offer. `status`, when sent, can only be `pending`. */
        OfferCreate: {
            /**
             * Format: uri
             * @description HTTPS URL of the original product; unique per account and environment
             */
            url: string;
            title: string;
            marketplace?: string;
            /** @description current price */
            price?: number;
            /** @description previous price */
            original_price?: number;
            /**
             * @description ISO 4217 code
             * @default BRL
             */
            currency: string;
            /**
             * Format: uri
             * @description HTTPS image URL
             */
            image?: string;
            /** @description store name */
            store?: string;
            category?: string;
            /** @description coupon code, as free text (see `coupon_id` for a registered coupon) */
            coupon?: string;
            /** @description a registered coupon: `{coupon}` renders its code and discount, and publishing refuses it once expired or inactive */
            coupon_id?: string;
            /** @description editorial text */
            copy?: string;
            /**
             * @description offers are created `pending` (curate them afterwards with PATCH); any other value is a 400
             * @enum {string}
             */
            status?: "pending";
        };
        /** @description Only the fields sent change. */
        OfferUpdate: {
            /**
             * Format: uri
             * @description HTTPS URL of the original product; unique per account and environment
             */
            url?: string;
            title?: string;
            marketplace?: string;
            /** @description current price */
            price?: number;
            /** @description previous price */
            original_price?: number;
            /** @description ISO 4217 code */
            currency?: string;
            /**
             * Format: uri
             * @description HTTPS image URL
             */
            image?: string;
            /** @description store name */
            store?: string;
            category?: string;
            /** @description coupon code, as free text (see `coupon_id` for a registered coupon) */
            coupon?: string;
            /** @description a registered coupon; null detaches it */
            coupon_id?: string | null;
            /** @description editorial text */
            copy?: string;
            /**
             * @description a curation move: pending → approved | rejected; approved → pending | rejected; rejected → pending | approved; archived → pending (restore). `archived` is reached only through DELETE. A move the current state does not allow is a 400 `invalid_transition`.
             * @enum {string}
             */
            status?: "pending" | "approved" | "rejected";
        };
        Offer: {
            id: string;
            url: string;
            title: string;
            marketplace: string | null;
            price: number | null;
            original_price: number | null;
            /** @description derived from price and original_price */
            discount_pct: number | null;
            currency: string;
            image: string | null;
            store: string | null;
            category: string | null;
            coupon: string | null;
            /** @description the registered coupon the offer uses, when any */
            coupon_id: string | null;
            copy: string | null;
            status: components["schemas"]["OfferStatus"];
            /** @description every curation move, oldest first */
            status_history: {
                status: components["schemas"]["OfferStatus"];
                /**
                 * Format: date-time
                 * @description when the move happened
                 */
                at: string;
            }[];
            /**
             * Format: date-time
             * @description creation time
             */
            created_at: string;
            /**
             * Format: date-time
             * @description last change
             */
            updated_at: string;
            /**
             * Format: date-time
             * @description when the offer was archived
             */
            archived_at: string | null;
            /** @description the monitor whose run found the offer; null for an offer created otherwise */
            monitor_id: string | null;
        };
        OfferArchive: {
            /** @description true: the offer left the active flow */
            deleted: boolean;
            /** @description true: the offer is kept, with its history, as `archived` */
            archived: boolean;
            id: string;
            request_id: components["schemas"]["RequestId"];
        };
        OfferPreviewRequest: {
            /** @description render for this segment: its default template, or the built-in layout with its store name and tagline */
            segment_id?: string;
            /** @description render with this template instead of the default one */
            template_id?: string;
        };
        /** @description The destination: exactly one of `group_id`, `segment_id`. */
        OfferPublishRequest: {
            /** @description publish to every active group of this segment */
            segment_id?: string;
            /** @description publish to this one group */
            group_id?: string;
            /** @description send the offer image when the channel supports it */
            with_image?: boolean;
        } & ({
            group_id: unknown;
        } | {
            segment_id: unknown;
        });
        OfferPreview: {
            offer_id: string;
            segment_id: string | null;
            /** @description the template the text was rendered with: the one named, else the segment's default, else the account's; null for the built-in layout */
            template_id: string | null;
            /** @description the final message, exactly as it would be sent */
            text: string;
            /** @description the image that would accompany it */
            image: string | null;
            /** @description characters in text */
            length: number;
        };
        OfferPublishResult: {
            offer_id: string;
            publications: components["schemas"]["Publication"][];
        };
        /**
         * @description what the group is used for
         * @enum {string}
         */
        GroupRole: "distribution" | "vip" | "community" | "support" | "test";
        Group: {
            id: string;
            name: string;
            role: components["schemas"]["GroupRole"];
            segment_id: string | null;
            /** @description kind of channel the group belongs to (never its address or session) */
            channel_type: string | null;
            /** @description maximum members the team wants in the group */
            capacity: number | null;
            /** @description whether automations may post to the group */
            automation: boolean;
            /** @description inactive groups receive no publication */
            active: boolean;
            /**
             * Format: date-time
             * @description creation time
             */
            created_at: string;
            /**
             * Format: date-time
             * @description last change
             */
            updated_at: string;
        };
        /** @description Only the fields sent change. */
        GroupUpdate: {
            name?: string;
            role?: components["schemas"]["GroupRole"];
            /** @description link to a segment of this account; null unlinks */
            segment_id?: string | null;
            capacity?: number | null;
            automation?: boolean;
            active?: boolean;
        };
        /**
         * @description `broadcast`: every active group of the segment receives each publication; `round_robin`: groups take turns; `least_loaded`: the active group with the fewest deliveries queued to it in the last 24 hours.
         * @enum {string}
         */
        Distribution: "broadcast" | "round_robin" | "least_loaded";
        SegmentCreate: {
            name: string;
            /** @description public slug, unique per account and environment; derived from name when omitted */
            slug?: string;
            description?: string;
            /** @description storefront name */
            store_name?: string;
            /** @description storefront phrase */
            store_tagline?: string;
            /** @description main colour, #RRGGBB */
            store_color?: string;
            /** @description open a new group automatically when the linked ones are full */
            auto_expand?: boolean;
            distribution?: components["schemas"]["Distribution"];
            /** @description keep a waiting list when every group is full */
            waitlist?: boolean;
        };
        /** @description Only the fields sent change. */
        SegmentUpdate: {
            name?: string;
            /** @description public slug, unique per account and environment; derived from name when omitted */
            slug?: string;
            description?: string;
            /** @description storefront name */
            store_name?: string;
            /** @description storefront phrase */
            store_tagline?: string;
            /** @description main colour, #RRGGBB */
            store_color?: string;
            /** @description open a new group automatically when the linked ones are full */
            auto_expand?: boolean;
            distribution?: components["schemas"]["Distribution"];
            /** @description keep a waiting list when every group is full */
            waitlist?: boolean;
        };
        Segment: {
            id: string;
            name: string;
            slug: string;
            description: string | null;
            store_name: string | null;
            store_tagline: string | null;
            store_color: string | null;
            auto_expand: boolean;
            distribution: components["schemas"]["Distribution"];
            waitlist: boolean;
            /** @description groups linked to the segment */
            group_count: number;
            /**
             * Format: date-time
             * @description creation time
             */
            created_at: string;
            /**
             * Format: date-time
             * @description last change
             */
            updated_at: string;
        };
        SegmentDeletion: {
            /** @description true: the segment was removed */
            deleted: boolean;
            /** @description id of the resource */
            id: string;
            request_id: components["schemas"]["RequestId"];
        };
        /**
         * @description Derived from validity and deactivation: `inactive` once deactivated (DELETE), else `expired` after `expires_at`, else `scheduled` before `starts_at`, else `active`.
         * @enum {string}
         */
        CouponStatus: "active" | "scheduled" | "expired" | "inactive";
        /** @description The discount, by `type`: `percent` off the order (`value` 0 < v ≤ 100, optional `max_amount` cap in `currency`), a fixed `amount` off (`value` in `currency`), or `free_shipping`. */
        CouponDiscountInput: {
            /** @constant */
            type: "percent";
            /** @description percent off */
            value: number;
            /** @description cap of the discount, in `currency` */
            max_amount?: number;
        } | {
            /** @constant */
            type: "amount";
            /** @description money off, in `currency` */
            value: number;
        } | {
            /** @constant */
            type: "free_shipping";
        };
        /** @description The discount as registered (see CouponDiscountInput). */
        CouponDiscount: {
            /** @constant */
            type: "percent";
            value: number;
            /** @description cap in `currency`; null for none */
            max_amount: number | null;
        } | {
            /** @constant */
            type: "amount";
            value: number;
        } | {
            /** @constant */
            type: "free_shipping";
        };
        /** @description One entry of a coupon's history. */
        CouponChange: {
            /**
             * Format: date-time
             * @description when the change was made
             */
            at: string;
            /** @enum {string} */
            change: "created" | "updated" | "deactivated" | "reactivated";
            /** @description the fields an `updated` change touched; empty for the others */
            fields: string[];
        };
        /** @description A coupon to register. The code (case-insensitive) is unique per store (case-insensitive) among coupons that are neither `inactive` nor `expired` (409 `conflict` otherwise). `expires_at` before `starts_at` is a 400 `validation_failed`. */
        CouponCreate: {
            /** @description the code the shopper types; letters, digits, `_`, `.`, `-` */
            code: string;
            /** @description the store the coupon is valid at */
            store: string;
            /** @description marketplace the store sells through, when any */
            marketplace?: string;
            /** @description conditions in words, shown with the coupon */
            description?: string;
            discount: components["schemas"]["CouponDiscountInput"];
            /**
             * @description ISO 4217 code of money amounts: an `amount` discount, `max_amount`, `min_purchase`
             * @default BRL
             */
            currency: string;
            /** @description eligibility: minimum order value, in `currency` */
            min_purchase?: number;
            /**
             * @description eligibility: only a shopper's first order at the store
             * @default false
             */
            first_purchase_only: boolean;
            /** @description eligibility: product categories the coupon applies to; empty for the whole store; at most 50 items */
            categories?: string[];
            /**
             * Format: uri
             * @description HTTPS page where the coupon is activated or listed
             */
            url?: string;
            /**
             * Format: date-time
             * @description validity: first instant the coupon works; omitted for immediately
             */
            starts_at?: string;
            /**
             * Format: date-time
             * @description validity: instant the coupon stops working; omitted for no expiry
             */
            expires_at?: string;
            /**
             * @description the team checked that the coupon works; only verified coupons are listed by default
             * @default false
             */
            verified: boolean;
        };
        /** @description Only the fields sent change; `null` clears an optional value; `discount` and `categories` are replaced as a whole. */
        CouponUpdate: {
            /** @description the code the shopper types; letters, digits, `_`, `.`, `-` */
            code?: string;
            /** @description the store the coupon is valid at */
            store?: string;
            /** @description marketplace the store sells through, when any */
            marketplace?: string | null;
            /** @description conditions in words, shown with the coupon */
            description?: string | null;
            discount?: components["schemas"]["CouponDiscountInput"];
            /** @description ISO 4217 code of money amounts: an `amount` discount, `max_amount`, `min_purchase` */
            currency?: string;
            /** @description eligibility: minimum order value, in `currency` */
            min_purchase?: number | null;
            /** @description eligibility: only a shopper's first order at the store */
            first_purchase_only?: boolean;
            /** @description eligibility: product categories the coupon applies to; empty for the whole store; at most 50 items */
            categories?: string[];
            /**
             * Format: uri
             * @description HTTPS page where the coupon is activated or listed
             */
            url?: string | null;
            /**
             * Format: date-time
             * @description validity: first instant the coupon works; omitted for immediately
             */
            starts_at?: string | null;
            /**
             * Format: date-time
             * @description validity: instant the coupon stops working; omitted for no expiry
             */
            expires_at?: string | null;
            /** @description the team checked that the coupon works; only verified coupons are listed by default */
            verified?: boolean;
            /** @description `true` reactivates a deactivated coupon; `false` deactivates it (as DELETE does) */
            active?: boolean;
        };
        /** @description A coupon with its discount, eligibility rules and validity. */
        Coupon: {
            id: string;
            code: string;
            store: string;
            marketplace: string | null;
            description: string | null;
            discount: components["schemas"]["CouponDiscount"];
            currency: string;
            min_purchase: number | null;
            first_purchase_only: boolean;
            categories: string[];
            url: string | null;
            /**
             * Format: date-time
             * @description validity start; null for immediately
             */
            starts_at: string | null;
            /**
             * Format: date-time
             * @description validity end; null for no expiry
             */
            expires_at: string | null;
            verified: boolean;
            /**
             * Format: date-time
             * @description when the coupon was last marked verified
             */
            verified_at: string | null;
            /** @description false once deactivated */
            active: boolean;
            status: components["schemas"]["CouponStatus"];
            /**
             * Format: date-time
             * @description creation time
             */
            created_at: string;
            /**
             * Format: date-time
             * @description last change
             */
            updated_at: string;
            /**
             * Format: date-time
             * @description when the coupon was deactivated
             */
            deactivated_at: string | null;
            /** @description every change, oldest first (kept after deactivation) */
            history: components["schemas"]["CouponChange"][];
        };
        /** @description Result of DELETE /coupons/{id}: the coupon is deactivated, never erased. */
        CouponDeactivation: {
            /** @description true: the coupon left the active list */
            deleted: boolean;
            /** @description true: the coupon is kept, with its history, as `inactive` */
            deactivated: boolean;
            id: string;
            request_id: components["schemas"]["RequestId"];
        };
        /**
         * @description Payment status as the network last reported it (by its own timestamps): `pending` (reported, not yet validated), `approved` (validated, awaiting payout), `paid`, `cancelled` (order cancelled before payout) or `refunded` (returned after approval or payout). A report older than the current state is kept in `history` without changing the status.
         * @enum {string}
         */
        CommissionStatus: "pending" | "approved" | "paid" | "cancelled" | "refunded";
        /** @description Where the sale came from. */
        CommissionAttribution: {
            /**
             * @description `click`: the network returned our click id (the sub-id on the tracked link); `inferred`: no click, but the product matched an offer published within the attribution window before the sale; `none`: neither
             * @enum {string}
             */
            method: "click" | "inferred" | "none";
            /** @description the tracked click that led to the order */
            click_id: string | null;
            /** @description the offer the sale is attributed to */
            offer_id: string | null;
            /** @description the publication the click (or the inferred offer) came from */
            publication_id: string | null;
            /** @description the group the click came from */
            group_id: string | null;
            /** @description the segment of that group or storefront */
            segment_id: string | null;
        };
        /** @description One status report of a commission. */
        CommissionChange: {
            status: components["schemas"]["CommissionStatus"];
            /** @description the commission amount this report gave, in minor units */
            amount_minor: number;
            /**
             * Format: date-time
             * @description the network's timestamp of this report
             */
            at: string;
            /**
             * Format: date-time
             * @description when offerops received it
             */
            received_at: string;
            /**
             * @description how it arrived
             * @enum {string}
             */
            source: "postback" | "import" | "operator";
            /** @description false for a report older than the state it arrived after: kept here, not applied */
            applied: boolean;
        };
        /** @description One commission earned on one marketplace order. */
        Commission: {
            id: string;
            marketplace: string;
            /** @description the network's transaction id (unique per marketplace) */
            transaction_id: string;
            /** @description the marketplace's order reference (no shopper data) */
            order_ref: string | null;
            /** @description commission amount, in minor units of `currency` (cents) */
            amount_minor: number;
            /** @description the same amount in `currency`; a decimal string, never a float */
            amount: string;
            /** @description value of the order in minor units, when the network reports it */
            order_amount_minor: number | null;
            /** @description ISO 4217 code */
            currency: string;
            status: components["schemas"]["CommissionStatus"];
            /**
             * Format: date-time
             * @description the network's timestamp of the current status
             */
            status_at: string;
            attribution: components["schemas"]["CommissionAttribution"];
            /** @description every report received, in the order they arrived */
            history: components["schemas"]["CommissionChange"][];
            /**
             * Format: date-time
             * @description when the order was placed
             */
            occurred_at: string;
            /**
             * Format: date-time
             * @description when the network reported the commission paid
             */
            paid_at: string | null;
            /**
             * Format: date-time
             * @description when offerops recorded it
             */
            created_at: string;
            /**
             * Format: date-time
             * @description last change
             */
            updated_at: string;
        };
        /** @description Commissions of one currency and payment status. */
        CommissionTotal: {
            /** @description ISO 4217 code */
            currency: string;
            status: components["schemas"]["CommissionStatus"];
            count: number;
            /** @description sum of `amount_minor` */
            amount_minor: number;
            /** @description the same sum in `currency`; a decimal string, never a float */
            amount: string;
        };
        /** @description Commission amounts grouped by currency and payment status (amounts of different currencies are never added). */
        CommissionSummary: {
            /** @description one entry per currency and status that has commissions, ordered by currency then status */
            totals: components["schemas"]["CommissionTotal"][];
        };
        /**
         * @description `queued`: recorded, its workflow started; `sending`: groups are being sent to; `sent`: every group received it; `partial`: some groups received it and the others failed for good; `failed`: no group received it. Moves: queued → sending → sent | partial | failed (sent, partial and failed are final).
         * @enum {string}
         */
        PublicationStatus: "queued" | "sending" | "sent" | "partial" | "failed";
        /**
         * @description `queued`: not attempted yet; `waiting`: held by the pacing of the group or channel; `sending`: an attempt is under way (transient channel errors are retried with backoff); `sent`: the channel accepted it; `failed`: a permanent error, or retries exhausted.
         * @enum {string}
         */
        GroupDeliveryStatus: "queued" | "waiting" | "sending" | "sent" | "failed";
        GroupDelivery: {
            group_id: string;
            status: components["schemas"]["GroupDeliveryStatus"];
            /** @description send attempts made to this group */
            attempts: number;
            /** @description why the last attempt failed, in words safe to show (no channel internals) */
            error: string | null;
            /** @description whether the image went with the text to this group */
            with_image: boolean;
            /**
             * Format: date-time
             * @description when the channel accepted the message
             */
            sent_at: string | null;
        };
        /** @description One publish request to one destination, with the result of each group. `event_id` is the event of the operation that queued it. Never carries the channel session, the group address or credentials. */
        Publication: {
            id: string;
            /** @description the offer sent; null for a text-only scheduled publication */
            offer_id: string | null;
            /** @description the group it was addressed to, when addressed to one group */
            group_id: string | null;
            /** @description the segment it was addressed to, when addressed to a segment */
            segment_id: string | null;
            /** @description the schedule that produced it, when it came from one */
            schedule_id: string | null;
            /** @description the template the message was rendered with; null for the default layout */
            template_id: string | null;
            /** @description the message as sent */
            text: string;
            /** @description whether the offer image is sent with the text where the channel supports it */
            with_image: boolean;
            status: components["schemas"]["PublicationStatus"];
            /** @description one entry per destination group */
            deliveries: components["schemas"]["GroupDelivery"][];
            event_id: components["schemas"]["EventId"] | null;
            /**
             * Format: date-time
             * @description when the publication was queued
             */
            queued_at: string;
            /**
             * Format: date-time
             * @description when it reached sent, partial or failed
             */
            completed_at: string | null;
            /**
             * Format: date-time
             * @description creation time
             */
            created_at: string;
            /**
             * Format: date-time
             * @description last change
             */
            updated_at: string;
        };
        /**
         * @description Markup of a template body.
         * @enum {string}
         */
        TemplateFormat: "plain" | "markdown" | "whatsapp" | "telegram_html";
        /** @description A reusable message template. */
        TemplateCreate: {
            /** @description name shown to the team */
            name: string;
            description?: string;
            /** @description The message, with placeholders filled from the offer when it is rendered: `{title}`, `{price}`, `{original_price}`, `{discount_pct}`, `{coupon}`, `{store}`, `{url}`, `{raw_url}`, `{copy}`. Prices are formatted in the offer currency, `{discount_pct}` is the whole percentage off (no sign). `{url}` is the offer's tracked link when the account has an integration for its marketplace (each group gets its own; the preview shows the affiliate URL), else the offer URL; `{raw_url}` is always the offer URL as it was given. A missing value renders as nothing, and a line whose placeholders are all missing is dropped with its labels. Write `{{` and `}}` for literal braces. An unknown placeholder or a lone brace is a 400 `validation_failed` whose `details` name the field `body` and the placeholder. */
            body: string;
            /**
             * @description The markup `body` is written in, which decides how offer values are escaped: `plain` (no markup, values as they are), `markdown` (Markdown metacharacters in values are backslash-escaped, the url is not), `whatsapp` (`*bold*`, `_italic_`, `~strike~`; WhatsApp has no escape, values go as they are) or `telegram_html` (`<b>`, `<i>`, `<a href>`…; values are HTML-escaped).
             * @default plain
             * @enum {string}
             */
            format: "plain" | "markdown" | "whatsapp" | "telegram_html";
            /**
             * @description the template used when a preview or publication names none: for its segment (`segment_id`), or for the whole account (no segment) when the segment has no default; setting it clears the flag on the previous default of the same scope
             * @default false
             */
            is_default: boolean;
            /** @description the segment the template belongs to (with `is_default`, that segment's default); omitted for an account-wide template */
            segment_id?: string;
        };
        /** @description Only the fields sent change; `null` clears an optional value. */
        TemplateUpdate: {
            /** @description name shown to the team */
            name?: string;
            description?: string | null;
            /** @description The message, with placeholders filled from the offer when it is rendered: `{title}`, `{price}`, `{original_price}`, `{discount_pct}`, `{coupon}`, `{store}`, `{url}`, `{raw_url}`, `{copy}`. Prices are formatted in the offer currency, `{discount_pct}` is the whole percentage off (no sign). `{url}` is the offer's tracked link when the account has an integration for its marketplace (each group gets its own; the preview shows the affiliate URL), else the offer URL; `{raw_url}` is always the offer URL as it was given. A missing value renders as nothing, and a line whose placeholders are all missing is dropped with its labels. Write `{{` and `}}` for literal braces. An unknown placeholder or a lone brace is a 400 `validation_failed` whose `details` name the field `body` and the placeholder. */
            body?: string;
            /**
             * @description The markup `body` is written in, which decides how offer values are escaped: `plain` (no markup, values as they are), `markdown` (Markdown metacharacters in values are backslash-escaped, the url is not), `whatsapp` (`*bold*`, `_italic_`, `~strike~`; WhatsApp has no escape, values go as they are) or `telegram_html` (`<b>`, `<i>`, `<a href>`…; values are HTML-escaped).
             * @enum {string}
             */
            format?: "plain" | "markdown" | "whatsapp" | "telegram_html";
            /** @description the template used when a preview or publication names none: for its segment (`segment_id`), or for the whole account (no segment) when the segment has no default; setting it clears the flag on the previous default of the same scope */
            is_default?: boolean;
            /** @description the segment the template belongs to; null makes it account-wide */
            segment_id?: string | null;
        };
        /** @description A reusable message template. */
        Template: {
            id: string;
            name: string;
            description: string | null;
            body: string;
            format: components["schemas"]["TemplateFormat"];
            is_default: boolean;
            segment_id: string | null;
            /** @description placeholders the body uses, in order of first use */
            placeholders: ("title" | "price" | "original_price" | "discount_pct" | "coupon" | "store" | "url" | "raw_url" | "copy")[];
            /** @description schedules that use the template and may still run (while any does, the template cannot be deleted; completed ones do not count) */
            schedule_count: number;
            /**
             * Format: date-time
             * @description creation time
             */
            created_at: string;
            /**
             * Format: date-time
             * @description last change
             */
            updated_at: string;
        };
        /** @description Result of DELETE /templates/{id}. */
        TemplateDeletion: {
            /** @description true: the template was removed */
            deleted: boolean;
            /** @description id of the resource */
            id: string;
            request_id: components["schemas"]["RequestId"];
        };
        /**
         * @description `active`: runs at `next_run_at`; `paused`: kept but does not run (PATCH `status`); `completed`: a one-off schedule that ran, or a recurrence past its end. Moves by PATCH: active ↔ paused; completed → active only with a new future `run_at` (or a new recurrence with runs ahead).
         * @enum {string}
         */
        ScheduleStatus: "active" | "paused" | "completed";
        /** @description Repeat the schedule: exactly one of `rrule` or `cron`, read as wall-clock time in `timezone` (`UTC` when omitted), so 09:00 stays 09:00 local across daylight-saving changes. A time that does not exist on the day the clocks go forward is skipped that day; a time that occurs twice on the day they go back runs once. Runs at most every 15 minutes: the times of day a rule gives must be at least 15 minutes apart, also across midnight (a denser rule is a 400 `validation_failed`). Replaced as a whole on update; `null` makes the schedule a one-off at `run_at`. */
        ScheduleRecurrenceInput: {
            /**
             * @description RFC 5545 RRULE without the `RRULE:` prefix, e.g. `FREQ=DAILY;BYHOUR=9;BYMINUTE=0` or `FREQ=WEEKLY;BYDAY=MO,WE,FR`. Supported subset, each part at most once and in any order: `FREQ` (required) = `DAILY`, `WEEKLY` or `MONTHLY`; `BYHOUR` (0-23) and `BYMINUTE` (0-59) lists; `BYDAY` (`MO`…`SU`, no ordinals such as `1MO`); `BYMONTHDAY` (1-31, `MONTHLY` only; months without that day are skipped); `INTERVAL` = 1, or for `MONTHLY` 2, 3, 4, 6 or 12. Numbers have one or two digits (`INTERVAL` up to three). A part left out is taken from `run_at` read in `timezone` (the hour and minute — and the second when neither `BYHOUR` nor `BYMINUTE` is given, else :00; the weekday for `WEEKLY`; the day of the month for `MONTHLY`). Anything else (`COUNT`, `UNTIL` — use `ends_at` —, `HOURLY`, `YEARLY`, `BYSETPOS`, `INTERVAL` above 1 for `DAILY`/`WEEKLY`, …) is a 400 `validation_failed` (rule `pattern`). The times of day it gives must be at least 15 minutes apart, across midnight too (rule `frequency`).
             * @example FREQ=DAILY;BYHOUR=9;BYMINUTE=0
             */
            rrule: string;
            /** @description IANA time zone name, e.g. `America/Sao_Paulo`, or `UTC` (the default when omitted); a name the time zone database does not know is a 400 `validation_failed` (rule `timezone`) */
            timezone?: string;
            /**
             * Format: date-time
             * @description no run after this instant, which must be after `run_at`; omitted for no end. An RFC 3339 date-time WITH an offset (`2030-01-01T09:00:00-03:00` or `…Z`); a time without an offset names no instant and is a 400 `validation_failed`. Kept to the second.
             */
            ends_at?: string;
        } | {
            /**
             * @description five-field cron expression (minute hour day-of-month month day-of-week, separated by single spaces), e.g. `0 9 * * 1-5`. Each field: `*`, a value, a range `a-b`, a step `*\/n`, `a/n` or `a-b/n` (n from 1 to 99), or a comma list of those; minutes 0-59, hours 0-23, days of the month 1-31, months `1-12` or `JAN`-`DEC`, weekdays `0-7` (0 and 7 are Sunday) or `SUN`-`SAT` (names in any case; numbers of one or two digits). Restrict day-of-month or day-of-week, not both (classic cron would run when either matches, the scheduler when both do: the ambiguity is refused). No `@daily`-style shorthands, `L`, `W`, `#` or `?`. A range must not run backwards (`9-7`: rule `range`), and the times of day must be at least 15 minutes apart, across midnight too (rule `frequency`).
             * @example 0 9 * * 1-5
             */
            cron: string;
            /** @description IANA time zone name, e.g. `America/Sao_Paulo`, or `UTC` (the default when omitted); a name the time zone database does not know is a 400 `validation_failed` (rule `timezone`) */
            timezone?: string;
            /**
             * Format: date-time
             * @description no run after this instant, which must be after `run_at`; omitted for no end. An RFC 3339 date-time WITH an offset (`2030-01-01T09:00:00-03:00` or `…Z`); a time without an offset names no instant and is a 400 `validation_failed`. Kept to the second.
             */
            ends_at?: string;
        };
        /** @description The recurrence of a schedule: one of `rrule`, `cron` is set. */
        ScheduleRecurrence: {
            rrule: string | null;
            cron: string | null;
            /** @description IANA time zone the rule is read in */
            timezone: string;
            /**
             * Format: date-time
             * @description no run after this instant
             */
            ends_at: string | null;
        };
        /** @description What to publish — exactly one of `offer_id`, `text` — where — exactly one of `group_id`, `segment_id` — and when: `run_at`, optionally repeated by `recurrence`. Breaking an exactly-one rule is a 400 `validation_failed` naming the fields; referenced ids this account does not have are a 400 `unknown_reference`. */
        ScheduleCreate: {
            /** @description label shown to the team */
            name?: string;
            /** @description content: publish this offer (pending or approved: 409 `offer_not_publishable` otherwise, as for publish) */
            offer_id?: string;
            /** @description content: publish this free text */
            text?: string;
            /** @description destination: this one group */
            group_id?: string;
            /** @description destination: every active group of this segment, by its distribution */
            segment_id?: string;
            /**
             * Format: date-time
             * @description when: the only run of a one-off schedule; for a recurring one, when the recurrence starts (its first run is the first occurrence at or after this instant). Must be in the future and at most 10 years ahead (later: a 400 `validation_failed` with the rule `horizon`, naming the last instant accepted). An RFC 3339 date-time WITH an offset (`2030-01-01T09:00:00-03:00` or `…Z`); a time without an offset names no instant and is a 400 `validation_failed`. Kept to the second.
             */
            run_at: string;
            recurrence?: components["schemas"]["ScheduleRecurrenceInput"];
            /** @description render an offer with this template; the default template when omitted */
            template_id?: string;
            /**
             * @description send the offer image with the text (ignored for `text`)
             * @default true
             */
            with_image: boolean;
        } & (({
            offer_id: unknown;
        } | {
            text: unknown;
        }) & ({
            group_id: unknown;
        } | {
            segment_id: unknown;
        }));
        /** @description Only the fields sent change; `null` clears an optional value. Sending `offer_id` or `text` replaces the content (never both: 400 `validation_failed`); sending `group_id` or `segment_id` replaces the destination (never both). `recurrence` is replaced as a whole. */
        ScheduleUpdate: {
            name?: string | null;
            /** @description content: publish this offer (pending or approved: 409 `offer_not_publishable` otherwise, as for publish) */
            offer_id?: string;
            /** @description content: publish this free text */
            text?: string;
            /** @description destination: this one group */
            group_id?: string;
            /** @description destination: every active group of this segment, by its distribution */
            segment_id?: string;
            /**
             * Format: date-time
             * @description when: the only run of a one-off schedule; for a recurring one, when the recurrence starts (its first run is the first occurrence at or after this instant). Must be in the future and at most 10 years ahead (later: a 400 `validation_failed` with the rule `horizon`, naming the last instant accepted); a completed schedule becomes active again with a new one. An RFC 3339 date-time WITH an offset (`2030-01-01T09:00:00-03:00` or `…Z`); a time without an offset names no instant and is a 400 `validation_failed`. Kept to the second.
             */
            run_at?: string;
            recurrence?: components["schemas"]["ScheduleRecurrenceInput"] | null;
            /** @description render an offer with this template; null for the default template */
            template_id?: string | null;
            /** @description send the offer image with the text (ignored for `text`) */
            with_image?: boolean;
            /**
             * @description pause or resume the schedule
             * @enum {string}
             */
            status?: "active" | "paused";
        } & (unknown & unknown);
        /** @description A future or recurring publication. Backed by a Temporal Schedule `schedule-<id>`; each run is a workflow `scheduleRun` (`schedule-run-<id>-<time>`) that queues one normal publication with `schedule_id` set. */
        Schedule: {
            id: string;
            name: string | null;
            /** @description content: the offer; null for a text schedule */
            offer_id: string | null;
            /** @description content: the text; null for an offer schedule */
            text: string | null;
            /** @description destination group; null when the destination is a segment */
            group_id: string | null;
            /** @description destination segment; null when the destination is a group */
            segment_id: string | null;
            template_id: string | null;
            with_image: boolean;
            /**
             * Format: date-time
             * @description the only run of a one-off schedule; when a recurring one starts
             */
            run_at: string;
            recurrence: components["schemas"]["ScheduleRecurrence"] | null;
            status: components["schemas"]["ScheduleStatus"];
            /**
             * Format: date-time
             * @description the next run, as the scheduler (Temporal) computes it; null when paused or completed
             */
            next_run_at: string | null;
            /**
             * Format: date-time
             * @description when the last run started, by the scheduler or run-now
             */
            last_run_at: string | null;
            /** @description runs started so far, by the scheduler or run-now */
            run_count: number;
            /**
             * Format: date-time
             * @description creation time
             */
            created_at: string;
            /**
             * Format: date-time
             * @description last change
             */
            updated_at: string;
        };
        /** @description The schedule after a run-now and what it queued. */
        ScheduleRunResult: {
            schedule: components["schemas"]["Schedule"];
            /** @description the publication this run queued */
            publications: components["schemas"]["Publication"][];
        };
        /** @description Result of DELETE /schedules/{id}. */
        ScheduleDeletion: {
            /** @description true: the schedule was cancelled and removed */
            deleted: boolean;
            /** @description id of the resource */
            id: string;
            request_id: components["schemas"]["RequestId"];
        };
        /** @description Where the fields of an item are, for `csv` (column names), `json` and `search` (field names or dot paths inside each item). Omitted fields take the defaults named. Prices may be numbers or text such as `"1.299,90 BRL"` or `"12.99 USD"`. */
        MonitorSourceMapping: {
            /** @description `search` only (required there): the path of the array of items in the answer, e.g. `data.results` */
            items?: string;
            /** @description the title (default `title`) */
            title?: string;
            /** @description the product URL (default `url`, then `link`) */
            url?: string;
            /** @description the current price (default `sale_price`, then `price`) */
            price?: string;
            /** @description the price before discount (default `original_price`, then `price` when `sale_price` is present) */
            original_price?: string;
            /** @description the image URL (default `image`, then `image_link`) */
            image?: string;
            /** @description the seller or brand (default `store`, then `brand`) */
            store?: string;
            /** @description the category (default `category`, then `product_type`) */
            category?: string;
            /** @description the commission in percent, when the network gives it (default `commission_pct`) */
            commission_pct?: string;
            /** @description the currency code (default `currency`; else the one written after the price, else BRL) */
            currency?: string;
        };
        /** @description One place offers are found. A `search` source says where its items are (`mapping.items`); no other type has it. */
        MonitorSource: {
            /**
             * @description `merchant_xml`: a Google Merchant feed, RSS 2.0 or Atom (`g:` fields); `csv`: a CSV file with a header row; `json`: JSON lines or one JSON array of items; `search`: an HTTP JSON API answering one document whose items are at `mapping.items`.
             * @enum {string}
             */
            type: "merchant_xml" | "csv" | "json" | "search";
            /**
             * Format: uri
             * @description where to fetch it (GET). HTTPS; plain http only to a host on the allow-list (`OFFEROPS_WEBHOOK_ALLOW`). Fetched as webhooks are sent: every address the host resolves to must be public unless allow-listed, no redirects.
             */
            url: string;
            /** @description a label for results (the host of `url` when omitted) */
            name?: string;
            /** @description the marketplace of its items, when the feed does not say */
            marketplace?: string;
            mapping?: components["schemas"]["MonitorSourceMapping"];
        };
        /** @description What a found item must meet; an omitted criterion does not filter. Replaced as a whole on update. */
        MonitorCriteria: {
            /** @description every one of these words must be in the title (case and accents ignored); at most 20 items */
            keywords_include?: string[];
            /** @description none of these words may be in the title; at most 20 items */
            keywords_exclude?: string[];
            /** @description the item's category must contain this text (case ignored) */
            category?: string;
            /** @description only items of this marketplace (the item's, else its source's) */
            marketplace?: string;
            /** @description only items of these stores (case ignored); at most 100 items */
            stores_allow?: string[];
            /** @description never items of these stores (case ignored); at most 100 items */
            stores_deny?: string[];
            /** @description at least this many percent off (an item without an original price has 0) */
            min_discount_pct?: number;
            /** @description at this price or above (an item without a price does not match a price bound) */
            min_price?: number;
            /** @description at this price or below; not below `min_price` */
            max_price?: number;
            /** @description at least this commission, in percent, where the source gives one (items without it are not filtered) */
            min_commission_pct?: number;
        };
        /** @description When the monitor runs: exactly one of `every_minutes` (15 to 10080), `cron` or `rrule` (read in `timezone`, as for schedules: five-field cron, the RRULE subset of schedules, at least 15 minutes apart). Replaced as a whole on update. */
        MonitorFrequency: {
            every_minutes: number;
        } | {
            /**
             * @description five-field cron expression (minute hour day-of-month month day-of-week, separated by single spaces), e.g. `0 9 * * 1-5`. Each field: `*`, a value, a range `a-b`, a step `*\/n`, `a/n` or `a-b/n` (n from 1 to 99), or a comma list of those; minutes 0-59, hours 0-23, days of the month 1-31, months `1-12` or `JAN`-`DEC`, weekdays `0-7` (0 and 7 are Sunday) or `SUN`-`SAT` (names in any case; numbers of one or two digits). Restrict day-of-month or day-of-week, not both (classic cron would run when either matches, the scheduler when both do: the ambiguity is refused). No `@daily`-style shorthands, `L`, `W`, `#` or `?`. A range must not run backwards (`9-7`: rule `range`), and the times of day must be at least 15 minutes apart, across midnight too (rule `frequency`).
             * @example 0 9 * * 1-5
             */
            cron: string;
            /** @description IANA time zone name, e.g. `America/Sao_Paulo`, or `UTC` (the default when omitted); a name the time zone database does not know is a 400 `validation_failed` (rule `timezone`) */
            timezone?: string;
        } | {
            /**
             * @description RFC 5545 RRULE without the `RRULE:` prefix, e.g. `FREQ=DAILY;BYHOUR=9;BYMINUTE=0` or `FREQ=WEEKLY;BYDAY=MO,WE,FR`. Supported subset, each part at most once and in any order: `FREQ` (required) = `DAILY`, `WEEKLY` or `MONTHLY`; `BYHOUR` (0-23) and `BYMINUTE` (0-59) lists; `BYDAY` (`MO`…`SU`, no ordinals such as `1MO`); `BYMONTHDAY` (1-31, `MONTHLY` only; months without that day are skipped); `INTERVAL` = 1, or for `MONTHLY` 2, 3, 4, 6 or 12. Numbers have one or two digits (`INTERVAL` up to three). A part left out is taken from `run_at` read in `timezone` (the hour and minute — and the second when neither `BYHOUR` nor `BYMINUTE` is given, else :00; the weekday for `WEEKLY`; the day of the month for `MONTHLY`). Anything else (`COUNT`, `UNTIL` — use `ends_at` —, `HOURLY`, `YEARLY`, `BYSETPOS`, `INTERVAL` above 1 for `DAILY`/`WEEKLY`, …) is a 400 `validation_failed` (rule `pattern`). The times of day it gives must be at least 15 minutes apart, across midnight too (rule `frequency`).
             * @example FREQ=DAILY;BYHOUR=9;BYMINUTE=0
             */
            rrule: string;
            /** @description IANA time zone name, e.g. `America/Sao_Paulo`, or `UTC` (the default when omitted); a name the time zone database does not know is a 400 `validation_failed` (rule `timezone`) */
            timezone?: string;
        };
        /** @description When the monitor runs: one of `every_minutes`, `cron`, `rrule` is set. */
        MonitorFrequencyRecord: {
            every_minutes: number | null;
            cron: string | null;
            rrule: string | null;
            timezone: string;
        };
        /** @description What a run does with what it finds: mode `publish` takes exactly one of `segment_id`, `group_id`; the other modes neither. Replaced as a whole on update. */
        MonitorAutomation: {
            /**
             * @description `none`: only count matches; `create`: create the matches not in the catalogue as `pending` offers; `publish`: create them and publish each new one through the normal publish path to `segment_id` or `group_id` (exactly one).
             * @enum {string}
             */
            mode: "none" | "create" | "publish";
            /** @description `publish` only: to this segment */
            segment_id?: string;
            /** @description `publish` only: to this group */
            group_id?: string;
            /** @description `publish`: send the image with the text (default true) */
            with_image?: boolean;
        };
        /** @description What a run does with what it finds. */
        MonitorAutomationRecord: {
            /** @enum {string} */
            mode: "none" | "create" | "publish";
            segment_id: string | null;
            group_id: string | null;
            with_image: boolean;
        };
        /** @description What one source gave in one run. */
        MonitorSourceResult: {
            name: string;
            /** @enum {string} */
            type: "merchant_xml" | "csv" | "json" | "search";
            /** @description items read */
            seen: number;
            /** @description items meeting the criteria */
            matched: number;
            /** @description offers created */
            created: number;
            /** @description offers published */
            published: number;
            /** @description why the source failed or stopped (the counts say how far it got); null when it was read whole */
            error: string | null;
        };
        /** @description The outcome of one run. */
        MonitorResult: {
            /** @description the workflow id of the run in Temporal (`monitor-run-<id>-<time>`) */
            workflow_id: string;
            /** @description the run id of that workflow execution in Temporal (two runs within one second share a workflow id) */
            run_id: string;
            /**
             * Format: date-time
             * @description when the run started
             */
            started_at: string;
            /**
             * Format: date-time
             * @description when it ended
             */
            finished_at: string;
            duration_ms: number;
            /** @description items read, all sources */
            seen: number;
            /** @description items meeting the criteria */
            matched: number;
            /** @description offers created (URLs not in the catalogue before) */
            created: number;
            /** @description offers published */
            published: number;
            /** @description sources that failed */
            errors: number;
            /** @description per source, in the order of `sources` */
            sources: components["schemas"]["MonitorSourceResult"][];
        };
        /** @description A recurring discovery. Without `criteria` every item matches; without `automation`, `mode` is `none`. A `segment_id` or `group_id` this account does not have is a 400 `unknown_reference`. */
        MonitorCreate: {
            /** @description name shown to the team */
            name: string;
            /** @description where offers are found, each read on its own; at most 10 items */
            sources: components["schemas"]["MonitorSource"][];
            criteria?: components["schemas"]["MonitorCriteria"];
            frequency: components["schemas"]["MonitorFrequency"];
            automation?: components["schemas"]["MonitorAutomation"];
            /**
             * @description a paused monitor does not run
             * @default active
             * @enum {string}
             */
            state: "active" | "paused";
        };
        /** @description Only the fields sent change; `sources`, `criteria`, `frequency` and `automation` are replaced as a whole. */
        MonitorUpdate: {
            name?: string;
            /** @description where offers are found; replaces the sources as a whole; at most 10 items */
            sources?: components["schemas"]["MonitorSource"][];
            criteria?: components["schemas"]["MonitorCriteria"];
            frequency?: components["schemas"]["MonitorFrequency"];
            automation?: components["schemas"]["MonitorAutomation"];
            /**
             * @description pause or resume
             * @enum {string}
             */
            state?: "active" | "paused";
        };
        /** @description A discovery rule. Backed by a Temporal Schedule `monitor-<id>`; each run is a workflow `monitorRun` (`monitor-run-<id>-<time>`) that reads every source in an activity of its own. */
        Monitor: {
            id: string;
            name: string;
            sources: components["schemas"]["MonitorSource"][];
            criteria: components["schemas"]["MonitorCriteria"];
            frequency: components["schemas"]["MonitorFrequencyRecord"];
            automation: components["schemas"]["MonitorAutomationRecord"];
            /** @enum {string} */
            state: "active" | "paused";
            /**
             * Format: date-time
             * @description the next run, as the scheduler (Temporal) computes it; null when paused
             */
            next_run_at: string | null;
            /**
             * Format: date-time
             * @description when the last run started
             */
            last_run_at: string | null;
            last_result: components["schemas"]["MonitorResult"] | null;
            /**
             * Format: date-time
             * @description creation time
             */
            created_at: string;
            /**
             * Format: date-time
             * @description last change
             */
            updated_at: string;
        };
        /** @description Result of DELETE /monitors/{id}. */
        MonitorDeletion: {
            /** @description true: the monitor and its schedule were removed (offers it created are kept) */
            deleted: boolean;
            /** @description id of the resource */
            id: string;
            request_id: components["schemas"]["RequestId"];
        };
        /**
         * @description Visual theme of the public store.
         * @enum {string}
         */
        StoreTheme: "classic" | "minimal" | "magazine" | "dark";
        /** @description Colour overrides; an omitted colour follows the theme. Replaced as a whole on update. */
        StoreColorsInput: {
            /** @description primary colour, #RRGGBB */
            primary?: string;
            /** @description secondary colour, #RRGGBB */
            secondary?: string;
            /** @description background colour, #RRGGBB */
            background?: string;
            /** @description text colour, #RRGGBB */
            text?: string;
        };
        /** @description The colours in effect: the overrides sent, else the theme's. */
        StoreColors: {
            primary: string;
            secondary: string;
            background: string;
            text: string;
        };
        /** @description Public links to the store's social networks; an omitted network is not shown. Replaced as a whole on update. */
        StoreNetworksInput: {
            /**
             * Format: uri
             * @description public HTTPS link to the instagram profile, channel or group invite
             */
            instagram?: string;
            /**
             * Format: uri
             * @description public HTTPS link to the facebook profile, channel or group invite
             */
            facebook?: string;
            /**
             * Format: uri
             * @description public HTTPS link to the tiktok profile, channel or group invite
             */
            tiktok?: string;
            /**
             * Format: uri
             * @description public HTTPS link to the youtube profile, channel or group invite
             */
            youtube?: string;
            /**
             * Format: uri
             * @description public HTTPS link to the x profile, channel or group invite
             */
            x?: string;
            /**
             * Format: uri
             * @description public HTTPS link to the telegram profile, channel or group invite
             */
            telegram?: string;
            /**
             * Format: uri
             * @description public HTTPS link to the whatsapp profile, channel or group invite
             */
            whatsapp?: string;
            /**
             * Format: uri
             * @description public HTTPS link to the site profile, channel or group invite
             */
            site?: string;
        };
        /** @description Public links to the store's social networks. */
        StoreNetworks: {
            /** @description instagram link; null when not set */
            instagram: string | null;
            /** @description facebook link; null when not set */
            facebook: string | null;
            /** @description tiktok link; null when not set */
            tiktok: string | null;
            /** @description youtube link; null when not set */
            youtube: string | null;
            /** @description x link; null when not set */
            x: string | null;
            /** @description telegram link; null when not set */
            telegram: string | null;
            /** @description whatsapp link; null when not set */
            whatsapp: string | null;
            /** @description site link; null when not set */
            site: string | null;
        };
        /** @description Service hours, one entry per day and period (at most two per day), in the store time zone. At most 14 items. */
        StoreHours: {
            /** @enum {string} */
            day: "mon" | "tue" | "wed" | "thu" | "fri" | "sat" | "sun";
            /** @description HH:MM, 24-hour clock */
            opens: string;
            /** @description HH:MM, later than `opens` */
            closes: string;
        }[];
        /** @description How visitors reach the store: a link, never a phone number. */
        StoreContact: {
            /**
             * @description what the link opens
             * @enum {string}
             */
            kind: "whatsapp_group" | "telegram" | "instagram" | "messenger" | "site";
            /**
             * Format: uri
             * @description a public HTTPS link (group invite, channel, profile, page) that reveals no private number or e-mail: a link with a phone number (e.g. `wa.me/5511…`) or an e-mail address in it is a 400
             */
            url: string;
            /** @description text of the button; `Fale com a gente` when omitted */
            label?: string;
        };
        /** @description Only the fields sent change; `null` clears an optional value; `colors` and `networks` are replaced as a whole. */
        StoreUpdate: {
            /** @description public name of the store */
            name?: string;
            /** @description short phrase under the name */
            tagline?: string | null;
            /** @description about text */
            description?: string | null;
            theme?: components["schemas"]["StoreTheme"];
            colors?: components["schemas"]["StoreColorsInput"];
            /**
             * Format: uri
             * @description HTTPS image URL of the logo
             */
            logo?: string | null;
            networks?: components["schemas"]["StoreNetworksInput"];
            hours?: components["schemas"]["StoreHours"];
            /** @description IANA time zone of `hours` (default America/Sao_Paulo) */
            timezone?: string;
            contact?: components["schemas"]["StoreContact"] | null;
            /** @description title of the home page for search engines */
            seo_title?: string | null;
            /** @description description of the home page for search engines */
            seo_description?: string | null;
            /** @description the store's address (`/s/{subdomain}/`), unique across accounts: a taken one is a 409 `slug_taken`; a reserved word (`www`, `api`, `admin`, … see docs/guides/storefront.md) or a name starting `acc-` is a 400 `validation_failed` (rule `reserved`) */
            subdomain?: string;
            /**
             * Format: hostname
             * @description custom domain (e.g. `ofertas.example.com`); changing it sets `domain_verified` to 0 until its DNS points to `dns_target`; null removes it
             */
            domain?: string | null;
            /** @description publish (true) or take down (false) the public store; returned as `active` 1 or 0 */
            active?: boolean;
        };
        /** @description The public store of the account: identity, theme, networks and address. Only public configuration. */
        Store: {
            id: string;
            subdomain: string;
            name: string;
            tagline: string | null;
            description: string | null;
            theme: components["schemas"]["StoreTheme"];
            colors: components["schemas"]["StoreColors"];
            logo: string | null;
            networks: components["schemas"]["StoreNetworks"];
            hours: components["schemas"]["StoreHours"];
            timezone: string;
            contact: components["schemas"]["StoreContact"] | null;
            seo_title: string | null;
            seo_description: string | null;
            /** @description custom domain; null when none */
            domain: string | null;
            /**
             * @description 1 when `domain` points to the store, else 0
             * @enum {integer}
             */
            domain_verified: 0 | 1;
            /** @description host the custom domain must have a CNAME record to; null without a domain */
            dns_target: string | null;
            /**
             * @description 1 when the public store is online, else 0
             * @enum {integer}
             */
            active: 0 | 1;
            /**
             * Format: uri
             * @description public address of the store (the custom domain once verified, else the subdomain)
             */
            url: string;
            /**
             * Format: date-time
             * @description creation time
             */
            created_at: string;
            /**
             * Format: date-time
             * @description last change
             */
            updated_at: string;
        };
        /** @description An editorial collection of offers on the store. */
        StoreCollection: {
            id: string;
            title: string;
            slug: string;
            description: string | null;
            /** @description public order: collections are shown by ascending position */
            position: number;
            /** @description shown on the public store */
            published: boolean;
            /** @description offers in the collection */
            offer_count: number;
            /** @description the offers, in the order the store shows them (only approved ones are shown) */
            offer_ids: string[];
            /**
             * Format: date-time
             * @description creation time
             */
            created_at: string;
            /**
             * Format: date-time
             * @description last change
             */
            updated_at: string;
        };
        /** @description A Markdown page of the store with its own SEO. */
        StorePageCreate: {
            title: string;
            /** @description unique public slug (lower-case words joined by `-`); derived from the title when omitted; taken is a 409 `slug_taken` */
            slug?: string;
            /** @description short text for listings */
            summary?: string;
            /** @description the page, in Markdown (raw HTML is escaped when rendered) */
            body?: string;
            /**
             * Format: uri
             * @description HTTPS image shown on top of the page
             */
            cover?: string;
            /** @description title for search engines; `title` when omitted */
            seo_title?: string;
            /** @description description for search engines; `summary` when omitted */
            seo_description?: string;
            /**
             * @description visible on the public store right away
             * @default false
             */
            published: boolean;
        };
        /** @description A Markdown page of the store. */
        StorePage: {
            id: string;
            title: string;
            slug: string;
            summary: string | null;
            /** @description Markdown; empty when none was sent */
            body: string;
            cover: string | null;
            seo_title: string | null;
            seo_description: string | null;
            published: boolean;
            /** @description path of the page under the store address: `/{slug}` */
            path: string;
            /**
             * Format: uri
             * @description public address of the page
             */
            url: string;
            /**
             * Format: date-time
             * @description when the page was first published
             */
            published_at: string | null;
            /**
             * Format: date-time
             * @description creation time
             */
            created_at: string;
            /**
             * Format: date-time
             * @description last change
             */
            updated_at: string;
        };
        /** @description A test on a field of the triggering event. */
        JourneyFilterCondition: {
            /** @description a field of the triggering event, e.g. `event.data.offer.price` */
            field: string;
            /**
             * @description `eq`/`neq` compare as text, `contains` (text or list), `gt`/`lt` as numbers, `exists` (not null)
             * @enum {string}
             */
            operator: "eq" | "neq" | "contains" | "exists" | "gt" | "lt";
            /** @description the value compared; not used by `exists` */
            value?: string | number | boolean | null;
        };
        /**
         * @description Kind of block of a journey graph.
         * @enum {string}
         */
        JourneyBlockType: "trigger" | "message" | "wait" | "wait_reply" | "condition" | "tag" | "assign" | "http" | "publish" | "end";
        /** @description Entry of the graph (exactly one). The journey's `trigger` and `filter` say which events start an execution. */
        JourneyTriggerConfig: Record<string, never>;
        /** @description Send a message in the conversation of the triggering event: a `text`, or a template (`template_id`, which must exist). */
        JourneyMessageConfig: {
            text: string;
        } | {
            /** @description the template to send */
            template_id: string;
        };
        /** @description Pause on a durable timer: `minutes`, or `until` the next time of day `HH:MM` in `timezone` (IANA). */
        JourneyWaitConfig: {
            /** @description wait this long (at most 30 days) */
            minutes: number;
        } | {
            /** @description wall-clock time of day, `HH:MM` */
            until: string;
            /** @description IANA time zone, e.g. `America/Sao_Paulo` */
            timezone: string;
        };
        /** @description Wait for the contact to reply: `next[0]` on a reply, `next[1]` on the time-out. */
        JourneyWaitReplyConfig: {
            /** @description give up after this long (at most 30 days) */
            timeout_minutes: number;
        };
        /** @description Branch: `next[0]` when the test holds, `next[1]` otherwise. */
        JourneyConditionConfig: {
            /** @description a field of the triggering event (`event.data.…`), of the contact or conversation (`contact.tags`, `conversation.status`), or of the answer of an earlier `http` block (`http.<block id>.status`, `http.<block id>.body.…`) */
            field: string;
            /**
             * @description `eq`/`neq` compare as text, `contains` (text or list), `gt`/`lt` as numbers, `exists` (not null)
             * @enum {string}
             */
            operator: "eq" | "neq" | "contains" | "exists" | "gt" | "lt";
            /** @description the value compared; not used by `exists` */
            value?: string | number | boolean | null;
        };
        /** @description Change tags or the stage of the contact. */
        JourneyTagConfig: {
            /** @description tags to add to the conversation and contact; at most 20 items */
            add?: string[];
            /** @description tags to remove; at most 20 items */
            remove?: string[];
            /**
             * @description set the contact's stage
             * @enum {string}
             */
            stage?: "new" | "engaged" | "customer" | "inactive";
        };
        /** @description Assign, prioritise or set the DU mode of the conversation. */
        JourneyAssignConfig: {
            /** @description team member; null unassigns */
            assignee?: string | null;
            priority?: components["schemas"]["Priority"];
            du_mode?: components["schemas"]["DuMode"];
        };
        /** @description Call an HTTPS URL; its status and JSON body are usable by later conditions (`http.<block id>.…`). */
        JourneyHttpConfig: {
            /**
             * Format: uri
             * @description an HTTPS URL; the destination rules of webhooks apply (no loopback or private address)
             */
            url: string;
            /**
             * @description `POST` when omitted
             * @enum {string}
             */
            method?: "GET" | "POST";
            /** @description JSON sent with POST (default: the triggering event); at most 100 fields at its top level, and the request as a whole nests at most 32 levels deep */
            body?: Record<string, never>;
            /** @description give up after this long (10000 when omitted) */
            timeout_ms?: number;
        };
        /** @description Publish to groups through the publish path (a publication, with the channels' pacing and retries): a `text`, or the offer the triggering event names (`event.data.offer.id` or `event.data.offer_id`; an event without one fails the block). Destination: exactly one of `group_id`, `segment_id` and `event_group`. One publication per execution and block, however often the step is retried. */
        JourneyPublishConfig: {
            /** @description publish to this group (it must exist) */
            group_id?: string;
            /** @description publish to every active group of this segment (it must exist) */
            segment_id?: string;
            /**
             * @description publish to the group the triggering event names (`event.data.group_id` or `event.data.group.id`)
             * @constant
             */
            event_group?: true;
            /** @description publish this text; without it, the offer of the triggering event */
            text?: string;
            /** @description render the event's offer with this template (it must exist); not with `text` */
            template_id?: string;
            /** @description send the offer's image where the channel supports it (default true) */
            with_image?: boolean;
        } & (({
            group_id: unknown;
        } | {
            segment_id: unknown;
        } | {
            event_group: unknown;
        }) & unknown);
        /** @description End the execution. */
        JourneyEndConfig: {
            /** @description also close the conversation */
            close_conversation?: boolean;
        };
        /** @description Where the visual editor draws the block. */
        JourneyBlockPosition: {
            x: number;
            y: number;
        };
        /** @description A block of the graph; `config` has the shape of its `type` (Journey<Type>Config). */
        JourneyBlockInput: {
            /** @description id of the block, unique in the journey */
            id: string;
            /** @constant */
            type: "trigger";
            /** @description label shown in the editor */
            name?: string;
            config: components["schemas"]["JourneyTriggerConfig"];
            /** @description the following block; empty ends the path; at most 1 item */
            next?: string[];
            position?: components["schemas"]["JourneyBlockPosition"];
        } | {
            /** @description id of the block, unique in the journey */
            id: string;
            /** @constant */
            type: "message";
            /** @description label shown in the editor */
            name?: string;
            config: components["schemas"]["JourneyMessageConfig"];
            /** @description the following block; empty ends the path; at most 1 item */
            next?: string[];
            position?: components["schemas"]["JourneyBlockPosition"];
        } | {
            /** @description id of the block, unique in the journey */
            id: string;
            /** @constant */
            type: "wait";
            /** @description label shown in the editor */
            name?: string;
            config: components["schemas"]["JourneyWaitConfig"];
            /** @description the following block; empty ends the path; at most 1 item */
            next?: string[];
            position?: components["schemas"]["JourneyBlockPosition"];
        } | {
            /** @description id of the block, unique in the journey */
            id: string;
            /** @constant */
            type: "wait_reply";
            /** @description label shown in the editor */
            name?: string;
            config: components["schemas"]["JourneyWaitReplyConfig"];
            /** @description [block on a reply, block on the time-out]; at most 2 items */
            next?: string[];
            position?: components["schemas"]["JourneyBlockPosition"];
        } | {
            /** @description id of the block, unique in the journey */
            id: string;
            /** @constant */
            type: "condition";
            /** @description label shown in the editor */
            name?: string;
            config: components["schemas"]["JourneyConditionConfig"];
            /** @description [block when true, block when false]; at most 2 items */
            next?: string[];
            position?: components["schemas"]["JourneyBlockPosition"];
        } | {
            /** @description id of the block, unique in the journey */
            id: string;
            /** @constant */
            type: "tag";
            /** @description label shown in the editor */
            name?: string;
            config: components["schemas"]["JourneyTagConfig"];
            /** @description the following block; empty ends the path; at most 1 item */
            next?: string[];
            position?: components["schemas"]["JourneyBlockPosition"];
        } | {
            /** @description id of the block, unique in the journey */
            id: string;
            /** @constant */
            type: "assign";
            /** @description label shown in the editor */
            name?: string;
            config: components["schemas"]["JourneyAssignConfig"];
            /** @description the following block; empty ends the path; at most 1 item */
            next?: string[];
            position?: components["schemas"]["JourneyBlockPosition"];
        } | {
            /** @description id of the block, unique in the journey */
            id: string;
            /** @constant */
            type: "http";
            /** @description label shown in the editor */
            name?: string;
            config: components["schemas"]["JourneyHttpConfig"];
            /** @description the following block; empty ends the path; at most 1 item */
            next?: string[];
            position?: components["schemas"]["JourneyBlockPosition"];
        } | {
            /** @description id of the block, unique in the journey */
            id: string;
            /** @constant */
            type: "publish";
            /** @description label shown in the editor */
            name?: string;
            config: components["schemas"]["JourneyPublishConfig"];
            /** @description the following block; empty ends the path; at most 1 item */
            next?: string[];
            position?: components["schemas"]["JourneyBlockPosition"];
        } | {
            /** @description id of the block, unique in the journey */
            id: string;
            /** @constant */
            type: "end";
            /** @description label shown in the editor */
            name?: string;
            config: components["schemas"]["JourneyEndConfig"];
            /** @description always empty: `end` closes the path */
            next?: string[];
            position?: components["schemas"]["JourneyBlockPosition"];
        };
        /** @description A block of the graph as stored; `config` has the shape of its `type`. */
        JourneyBlock: {
            /** @description id of the block, unique in the journey */
            id: string;
            /** @constant */
            type: "trigger";
            name: string | null;
            config: components["schemas"]["JourneyTriggerConfig"];
            /** @description the following block; empty ends the path; at most 1 item */
            next: string[];
            position: components["schemas"]["JourneyBlockPosition"] | null;
            metrics: components["schemas"]["JourneyBlockMetrics"];
        } | {
            /** @description id of the block, unique in the journey */
            id: string;
            /** @constant */
            type: "message";
            name: string | null;
            config: components["schemas"]["JourneyMessageConfig"];
            /** @description the following block; empty ends the path; at most 1 item */
            next: string[];
            position: components["schemas"]["JourneyBlockPosition"] | null;
            metrics: components["schemas"]["JourneyBlockMetrics"];
        } | {
            /** @description id of the block, unique in the journey */
            id: string;
            /** @constant */
            type: "wait";
            name: string | null;
            config: components["schemas"]["JourneyWaitConfig"];
            /** @description the following block; empty ends the path; at most 1 item */
            next: string[];
            position: components["schemas"]["JourneyBlockPosition"] | null;
            metrics: components["schemas"]["JourneyBlockMetrics"];
        } | {
            /** @description id of the block, unique in the journey */
            id: string;
            /** @constant */
            type: "wait_reply";
            name: string | null;
            config: components["schemas"]["JourneyWaitReplyConfig"];
            /** @description [block on a reply, block on the time-out]; at most 2 items */
            next: string[];
            position: components["schemas"]["JourneyBlockPosition"] | null;
            metrics: components["schemas"]["JourneyBlockMetrics"];
        } | {
            /** @description id of the block, unique in the journey */
            id: string;
            /** @constant */
            type: "condition";
            name: string | null;
            config: components["schemas"]["JourneyConditionConfig"];
            /** @description [block when true, block when false]; at most 2 items */
            next: string[];
            position: components["schemas"]["JourneyBlockPosition"] | null;
            metrics: components["schemas"]["JourneyBlockMetrics"];
        } | {
            /** @description id of the block, unique in the journey */
            id: string;
            /** @constant */
            type: "tag";
            name: string | null;
            config: components["schemas"]["JourneyTagConfig"];
            /** @description the following block; empty ends the path; at most 1 item */
            next: string[];
            position: components["schemas"]["JourneyBlockPosition"] | null;
            metrics: components["schemas"]["JourneyBlockMetrics"];
        } | {
            /** @description id of the block, unique in the journey */
            id: string;
            /** @constant */
            type: "assign";
            name: string | null;
            config: components["schemas"]["JourneyAssignConfig"];
            /** @description the following block; empty ends the path; at most 1 item */
            next: string[];
            position: components["schemas"]["JourneyBlockPosition"] | null;
            metrics: components["schemas"]["JourneyBlockMetrics"];
        } | {
            /** @description id of the block, unique in the journey */
            id: string;
            /** @constant */
            type: "http";
            name: string | null;
            config: components["schemas"]["JourneyHttpConfig"];
            /** @description the following block; empty ends the path; at most 1 item */
            next: string[];
            position: components["schemas"]["JourneyBlockPosition"] | null;
            metrics: components["schemas"]["JourneyBlockMetrics"];
        } | {
            /** @description id of the block, unique in the journey */
            id: string;
            /** @constant */
            type: "publish";
            name: string | null;
            config: components["schemas"]["JourneyPublishConfig"];
            /** @description the following block; empty ends the path; at most 1 item */
            next: string[];
            position: components["schemas"]["JourneyBlockPosition"] | null;
            metrics: components["schemas"]["JourneyBlockMetrics"];
        } | {
            /** @description id of the block, unique in the journey */
            id: string;
            /** @constant */
            type: "end";
            name: string | null;
            config: components["schemas"]["JourneyEndConfig"];
            /** @description always empty: `end` closes the path */
            next: string[];
            position: components["schemas"]["JourneyBlockPosition"] | null;
            metrics: components["schemas"]["JourneyBlockMetrics"];
        };
        /** @description What the executions did at one block, since the journey was created (kept by the executions). */
        JourneyBlockMetrics: {
            /** @description times an execution reached the block */
            entered: number;
            /** @description times an execution went past it */
            completed: number;
            /** @description times an execution failed in it */
            failed: number;
        };
        /** @description Aggregate performance of a journey since its creation. */
        JourneyMetrics: {
            /** @description executions under way */
            running: number;
            completed: number;
            /** @description failed, cancelled, terminated or timed out */
            failed: number;
            /** @description completed / finished executions; null before any finished */
            completion_rate: number | null;
            /**
             * Format: date-time
             * @description start of the latest execution
             */
            last_execution_at: string | null;
        };
        /** @description A visual automation. It is created as a draft (`active` 0) and runs only after POST /journeys/{id}/activate. */
        JourneyCreate: {
            name: string;
            description?: string;
            /**
             * @description an event kind of the catalogue, e.g. `conversation.updated`
             * @enum {string}
             */
            trigger: "application.created" | "application.revoked" | "channel.state_changed" | "commission.approved" | "commission.created" | "commission.status_changed" | "contact.created" | "contract_test.completed" | "conversation.closed" | "conversation.created" | "conversation.updated" | "coupon.created" | "coupon.deactivated" | "coupon.updated" | "group.updated" | "journey.created" | "journey.deleted" | "journey.updated" | "link.created" | "message.failed" | "message.received" | "message.sent" | "monitor.created" | "monitor.deleted" | "monitor.ran" | "monitor.updated" | "offer.archived" | "offer.created" | "offer.previewed" | "offer.updated" | "publication.completed" | "publication.queued" | "sandbox.reset" | "schedule.created" | "schedule.deleted" | "schedule.ran" | "schedule.updated" | "segment.created" | "segment.deleted" | "segment.updated" | "store.page_created" | "store.updated" | "template.created" | "template.deleted" | "template.updated" | "webhook.created" | "webhook.deleted" | "webhook.updated";
            /** @description tests on fields of the triggering event (`event.data.…`), all of which must hold for an execution to start; at most 20 items */
            filter?: components["schemas"]["JourneyFilterCondition"][];
            /** @description channels the journey runs on; every channel when omitted; at most 5 items */
            channels?: components["schemas"]["ChannelType"][];
            /** @description The graph: exactly one `trigger` block (the entry), ids unique, every `next` naming a block of the journey, no loop without a `wait` or `wait_reply` block, every block reachable from the trigger, every template named existing. A graph that breaks these rules is a 400 `validation_failed` whose `details` name the block (`blocks[<id>]`) and the rule. At most 200 items. */
            blocks: components["schemas"]["JourneyBlockInput"][];
        };
        /** @description Only the fields sent change; `blocks` replaces the whole graph. Executions already running finish on the graph they started with. */
        JourneyUpdate: {
            name?: string;
            description?: string | null;
            /**
             * @description an event kind of the catalogue, e.g. `conversation.updated`
             * @enum {string}
             */
            trigger?: "application.created" | "application.revoked" | "channel.state_changed" | "commission.approved" | "commission.created" | "commission.status_changed" | "contact.created" | "contract_test.completed" | "conversation.closed" | "conversation.created" | "conversation.updated" | "coupon.created" | "coupon.deactivated" | "coupon.updated" | "group.updated" | "journey.created" | "journey.deleted" | "journey.updated" | "link.created" | "message.failed" | "message.received" | "message.sent" | "monitor.created" | "monitor.deleted" | "monitor.ran" | "monitor.updated" | "offer.archived" | "offer.created" | "offer.previewed" | "offer.updated" | "publication.completed" | "publication.queued" | "sandbox.reset" | "schedule.created" | "schedule.deleted" | "schedule.ran" | "schedule.updated" | "segment.created" | "segment.deleted" | "segment.updated" | "store.page_created" | "store.updated" | "template.created" | "template.deleted" | "template.updated" | "webhook.created" | "webhook.deleted" | "webhook.updated";
            /** @description tests on fields of the triggering event (`event.data.…`), all of which must hold for an execution to start; at most 20 items */
            filter?: components["schemas"]["JourneyFilterCondition"][];
            /** @description channels the journey runs on; at most 5 items */
            channels?: components["schemas"]["ChannelType"][];
            /** @description The graph: exactly one `trigger` block (the entry), ids unique, every `next` naming a block of the journey, no loop without a `wait` or `wait_reply` block, every block reachable from the trigger, every template named existing. A graph that breaks these rules is a 400 `validation_failed` whose `details` name the block (`blocks[<id>]`) and the rule. At most 200 items. */
            blocks?: components["schemas"]["JourneyBlockInput"][];
        };
        /** @description A journey (DU automation): a graph of blocks started by an event kind. */
        Journey: {
            id: string;
            name: string;
            description: string | null;
            /** @description the event kind that starts an execution */
            trigger: string;
            filter: components["schemas"]["JourneyFilterCondition"][];
            channels: components["schemas"]["ChannelType"][];
            blocks: components["schemas"]["JourneyBlock"][];
            /** @description raised by every change of trigger, filter or blocks; each execution runs the version it started with */
            version: number;
            /**
             * @description 1 when active, 0 for a draft or a paused journey
             * @enum {integer}
             */
            active: 0 | 1;
            /** @description executions ever started */
            executions: number;
            metrics: components["schemas"]["JourneyMetrics"];
            /**
             * Format: date-time
             * @description when it was last activated; null while never activated
             */
            activated_at: string | null;
            /**
             * Format: date-time
             * @description creation time
             */
            created_at: string;
            /**
             * Format: date-time
             * @description last change
             */
            updated_at: string;
        };
        /** @description Activate (the default) or pause. */
        JourneyActivateRequest: {
            /**
             * @description `true` activates, `false` pauses
             * @default true
             */
            active: boolean;
        };
        /** @description One run of a journey. */
        JourneyExecution: {
            /** @description id of the execution (its durable workflow id) */
            id: string;
            journey_id: string;
            /** @description the conversation the execution acts on, when any */
            conversation_id: string | null;
            status: components["schemas"]["JourneyExecutionStatus"];
            /** @description id of the block being executed; null once closed */
            current_step: string | null;
            /** @description the event that started it */
            event_id: string;
            /** @description its kind */
            event_kind: string;
            /** @description the version of the journey it runs */
            version: number;
            /** @description why it failed; null otherwise */
            error: string | null;
            /**
             * Format: date-time
             * @description start
             */
            started_at: string;
            /**
             * Format: date-time
             * @description end; null while running
             */
            closed_at: string | null;
        };
        /**
         * @description `running`, or how it closed: `completed`, `failed` (a block failed), `cancelled` (cancelled in Temporal by an operator), `terminated` (stopped by an operator), `timed_out`. Pausing the journey lets running executions finish.
         * @enum {string}
         */
        JourneyExecutionStatus: "running" | "completed" | "failed" | "cancelled" | "terminated" | "timed_out";
        /** @description Result of DELETE /journeys/{id}. */
        JourneyDeletion: {
            /** @description true: the journey was removed */
            deleted: boolean;
            /** @description id of the resource */
            id: string;
            request_id: components["schemas"]["RequestId"];
        };
        /**
         * @description Kind of messaging channel (never the address or session).
         * @enum {string}
         */
        ChannelType: "whatsapp" | "telegram" | "instagram" | "messenger" | "webchat";
        /**
         * @description `open`: waiting for the team; `pending`: waiting for the contact (set when the team replies); `closed`: ended (close). A new inbound message reopens a pending or closed conversation as `open`.
         * @enum {string}
         */
        ConversationStatus: "open" | "pending" | "closed";
        /**
         * @description Urgency of a conversation.
         * @enum {string}
         */
        Priority: "low" | "medium" | "high" | "urgent";
        /**
         * @description DU (automation) mode: `auto` — journeys and automatic answers act alone; `assisted` — automations only suggest, a person sends; `off` — automations are off for the conversation.
         * @enum {string}
         */
        DuMode: "auto" | "assisted" | "off";
        /** @description Conversation metadata and context. No phone number, e-mail or channel address. */
        Conversation: {
            id: string;
            channel: components["schemas"]["ChannelType"];
            /** @description the connection the conversation runs on (its address is never shown) */
            channel_id: string;
            status: components["schemas"]["ConversationStatus"];
            /** @description team member in charge; null when unassigned */
            assignee: string | null;
            priority: components["schemas"]["Priority"];
            du_mode: components["schemas"]["DuMode"];
            contact_id: string;
            tags: string[];
            /** @description inbound messages the team has not read */
            unread_count: number;
            /**
             * Format: date-time
             * @description time of the latest message either way
             */
            last_message_at: string | null;
            /** @description the first characters of the latest message text */
            last_message_preview: string | null;
            /**
             * Format: date-time
             * @description when the conversation started
             */
            created_at: string;
            /**
             * Format: date-time
             * @description last change
             */
            updated_at: string;
            /**
             * Format: date-time
             * @description when it was closed; null unless closed
             */
            closed_at: string | null;
        };
        /** @description A conversation with its contact profile (stage, interests, tags) and latest messages. No phone number, e-mail or channel address. */
        ConversationContext: {
            id: string;
            channel: components["schemas"]["ChannelType"];
            /** @description the connection the conversation runs on (its address is never shown) */
            channel_id: string;
            status: components["schemas"]["ConversationStatus"];
            /** @description team member in charge; null when unassigned */
            assignee: string | null;
            priority: components["schemas"]["Priority"];
            du_mode: components["schemas"]["DuMode"];
            contact_id: string;
            tags: string[];
            /** @description inbound messages the team has not read */
            unread_count: number;
            /**
             * Format: date-time
             * @description time of the latest message either way
             */
            last_message_at: string | null;
            /** @description the first characters of the latest message text */
            last_message_preview: string | null;
            /**
             * Format: date-time
             * @description when the conversation started
             */
            created_at: string;
            /**
             * Format: date-time
             * @description last change
             */
            updated_at: string;
            /**
             * Format: date-time
             * @description when it was closed; null unless closed
             */
            closed_at: string | null;
            contact: components["schemas"]["Contact"];
            /** @description the latest 20 messages, newest first; at most 20 items */
            last_messages: components["schemas"]["Message"][];
        };
        /** @description Assign, prioritise, tag, move between open and pending, or change the DU mode. Only the fields sent change. */
        ConversationUpdate: {
            /** @description team member the conversation is assigned to (name or handle in the team); null unassigns */
            assignee?: string | null;
            priority?: components["schemas"]["Priority"];
            du_mode?: components["schemas"]["DuMode"];
            /** @description replaces the conversation's tags; at most 30 items */
            tags?: string[];
            /**
             * @description `open` (waiting for the team) or `pending` (waiting for the contact); closing is `POST …/close`, and a closed conversation reopens with a new inbound message
             * @enum {string}
             */
            status?: "open" | "pending";
        };
        /** @description Optional details of the close. */
        ConversationCloseRequest: {
            /** @description why the conversation was closed, kept in its history and event */
            reason?: string;
        };
        /** @description One message of a conversation. */
        Message: {
            id: string;
            conversation_id: string;
            /**
             * @description `inbound` from the contact, `outbound` from the team or an automation
             * @enum {string}
             */
            direction: "inbound" | "outbound";
            /**
             * @description who wrote it: the contact, a person of the team, or a journey
             * @enum {string}
             */
            author: "contact" | "team" | "automation";
            /** @description the team member who sent an outbound reply, when named; null otherwise */
            agent: string | null;
            /** @description the text; null for a media-only message */
            text: string | null;
            /**
             * @description kind of attached media, if any
             * @enum {string|null}
             */
            media_type: "image" | "audio" | "video" | "document" | "sticker" | null;
            /** @description links to the attached media, as the channel gave them */
            media_urls: string[];
            /** @description template an outbound reply was rendered from */
            template_id: string | null;
            /**
             * @description inbound messages are `received`; outbound ones move queued → sent → delivered → read, or → failed
             * @enum {string}
             */
            status: "received" | "queued" | "sent" | "delivered" | "read" | "failed";
            /** @description why an outbound message failed (the channel's classified answer — a status, a timeout — or `internal error; quote reply-msg_…`); null otherwise */
            error: string | null;
            /**
             * Format: date-time
             * @description when the channel accepted (outbound) or sent (inbound) it; null while queued
             */
            sent_at: string | null;
            /**
             * Format: date-time
             * @description when it was recorded
             */
            created_at: string;
        };
        /** @description A reply: free `text`, or a template (`template_id`, placeholders filled from `offer_id` when given), with an optional image (`media_urls`, one link). It is registered as an outbound message (`queued`) and delivered by the channel connector (workflow `reply-<message id>`): follow its `status` in the message history. */
        ConversationReply: {
            /** @description the reply text */
            text: string;
            /** @description an image to send with the text (one link; the gateway gets it as `image_url`, Telegram as a photo); at most 1 item */
            media_urls?: string[];
            /** @description the team member replying, shown on the message (`agent`) */
            agent?: string;
        } | {
            /** @description the template to render */
            template_id: string;
            /** @description fills the template placeholders (`{title}`, `{price}`, …) from this offer */
            offer_id?: string;
            /** @description an image to send with the text (one link; the gateway gets it as `image_url`, Telegram as a photo); at most 1 item */
            media_urls?: string[];
            /** @description the team member replying, shown on the message (`agent`) */
            agent?: string;
        };
        /** @description A contact profile without direct contact data: no phone number, e-mail or channel address. */
        Contact: {
            id: string;
            /** @description the name the contact shows on the channel; null when unknown */
            display_name: string | null;
            /** @description channels the contact has talked on */
            channels: components["schemas"]["ChannelType"][];
            /**
             * @description relationship stage
             * @enum {string}
             */
            stage: "new" | "engaged" | "customer" | "inactive";
            /** @description interests inferred from conversations and clicks (e.g. categories) */
            interests: string[];
            tags: string[];
            conversation_count: number;
            /**
             * Format: date-time
             * @description first message
             */
            first_seen_at: string;
            /**
             * Format: date-time
             * @description latest inbound message
             */
            last_seen_at: string | null;
        };
        /** @description Commissions in one currency. */
        MoneyTotal: {
            /** @description ISO 4217 code */
            currency: string;
            /** @description commissions (cancelled or refunded ones no longer count) */
            count: number;
            /** @description their sum in the minor unit of `currency` (cents for BRL), an integer */
            amount_minor: number;
            /** @description the same sum as a decimal string in `currency` (`"1234.50"`), never a float */
            amount: string;
        };
        /** @description Headline numbers: publications, deliveries, failures, clicks, commissions. Counts cover the last `days` local days of the account's time zone, today included. A publication and its deliveries count on the day the publication was queued; a click on its day; a commission on the day of the sale. Clicks exclude bots and link prefetchers unless `include_bots` is true. */
        AnalyticsSummary: {
            /** @description the `days` requested */
            days: number;
            /** @description the account's time zone (IANA name) whose days these are; `UTC` unless an operator set another */
            time_zone: string;
            /**
             * Format: date
             * @description the first local day of the window (`days` - 1 days before today)
             */
            first_day: string;
            /**
             * Format: date
             * @description the last local day of the window: today, in `time_zone`
             */
            last_day: string;
            /** @description publications queued */
            publications: number;
            /** @description of those, completed `sent` or `partial` */
            publications_sent: number;
            /** @description of those, completed `failed` */
            publications_failed: number;
            /** @description deliveries queued (one per publication and group) */
            deliveries: number;
            /** @description of those, sent */
            deliveries_sent: number;
            /** @description of those, failed for good */
            deliveries_failed: number;
            /** @description deliveries_sent / (deliveries_sent + deliveries_failed); null when there is nothing to divide by */
            delivery_rate: number | null;
            /** @description clicks on tracked links */
            clicks: number;
            /** @description clicks of bots and link prefetchers (always apart, whatever `include_bots`) */
            bot_clicks: number;
            /** @description commissions of sales in the window, one entry per currency (never added together), by currency code */
            commissions: components["schemas"]["MoneyTotal"][];
        };
        /** @description Publications, posts, failures, clicks and commissions per day. Counts cover the last `days` local days of the account's time zone, today included. A publication and its deliveries count on the day the publication was queued; a click on its day; a commission on the day of the sale. Clicks exclude bots and link prefetchers unless `include_bots` is true. */
        AnalyticsTimeseries: {
            /** @description the `days` requested */
            days: number;
            /** @description the account's time zone (IANA name) whose days these are; `UTC` unless an operator set another */
            time_zone: string;
            /**
             * Format: date
             * @description the first local day of the window (`days` - 1 days before today)
             */
            first_day: string;
            /**
             * Format: date
             * @description the last local day of the window: today, in `time_zone`
             */
            last_day: string;
            /** @description one point per day of the window, oldest first, days without activity included with zeros */
            points: {
                /**
                 * Format: date
                 * @description the local day, in the account's time zone
                 */
                date: string;
                /** @description publications queued */
                publications: number;
                /** @description of those, `sent` or `partial` */
                posts: number;
                /** @description of those, `failed` */
                failures: number;
                /** @description deliveries sent */
                deliveries_sent: number;
                /** @description deliveries failed */
                deliveries_failed: number;
                /** @description clicks */
                clicks: number;
                /** @description commissions of sales that day, one entry per currency (never added together), by currency code */
                commissions: components["schemas"]["MoneyTotal"][];
            }[];
        };
        /** @description Volume, delivery, errors and clicks of one group. Counts cover the last `days` local days of the account's time zone, today included. A publication and its deliveries count on the day the publication was queued; a click on its day; a commission on the day of the sale. Clicks exclude bots and link prefetchers unless `include_bots` is true. */
        AnalyticsGroup: {
            group_id: string;
            /** @description the group's name; null when the group was deleted since */
            name: string | null;
            /** @description publications queued to the group (its deliveries) */
            publications: number;
            /** @description deliveries sent */
            sent: number;
            /** @description deliveries failed for good (its errors) */
            failed: number;
            /** @description sent / (sent + failed); null when there is nothing to divide by */
            delivery_rate: number | null;
            /** @description clicks from the group */
            clicks: number;
            /** @description commissions attributed to the group, one entry per currency (never added together), by currency code */
            commissions: components["schemas"]["MoneyTotal"][];
        };
        /** @description Publications, clicks and commissions of one offer. Counts cover the last `days` local days of the account's time zone, today included. A publication and its deliveries count on the day the publication was queued; a click on its day; a commission on the day of the sale. Clicks exclude bots and link prefetchers unless `include_bots` is true. */
        AnalyticsOffer: {
            offer_id: string;
            /** @description the offer's title; null when the offer no longer exists */
            title: string | null;
            marketplace: string | null;
            /** @description publications of the offer queued */
            publications: number;
            /** @description of those, `sent` or `partial` */
            posts: number;
            /** @description clicks on its links */
            clicks: number;
            /** @description commissions attributed to it, every currency */
            commissions: number;
            /** @description those commissions, one entry per currency (never added together), by currency code */
            revenue: components["schemas"]["MoneyTotal"][];
        };
        /** @description Publications, clicks and revenue of one marketplace. Counts cover the last `days` local days of the account's time zone, today included. A publication and its deliveries count on the day the publication was queued; a click on its day; a commission on the day of the sale. Clicks exclude bots and link prefetchers unless `include_bots` is true. */
        AnalyticsSource: {
            /**
             * @description the marketplace (an offer's from its `marketplace` field, else its URL's host)
             * @enum {string}
             */
            marketplace: "amazon" | "mercadolivre" | "shopee" | "aliexpress" | "magalu" | "other";
            /** @description publications of its offers queued */
            publications: number;
            /** @description clicks on its links */
            clicks: number;
            /** @description commissions, every currency */
            commissions: number;
            /** @description those commissions, one entry per currency (never added together), by currency code */
            revenue: components["schemas"]["MoneyTotal"][];
        };
        /** @description Clicks by weekday × hour, and storefront clicks by page element and page. Counts cover the last `days` local days of the account's time zone, today included. A publication and its deliveries count on the day the publication was queued; a click on its day; a commission on the day of the sale. Clicks exclude bots and link prefetchers unless `include_bots` is true. */
        AnalyticsHeatmap: {
            /** @description the `days` requested */
            days: number;
            /** @description the account's time zone (IANA name) whose days these are; `UTC` unless an operator set another */
            time_zone: string;
            /**
             * Format: date
             * @description the first local day of the window (`days` - 1 days before today)
             */
            first_day: string;
            /**
             * Format: date
             * @description the last local day of the window: today, in `time_zone`
             */
            last_day: string;
            /** @description clicks in the window */
            clicks: number;
            /** @description every weekday × hour (168 cells, zeros included), Sunday 0:00 first; at most 168 items */
            hours: {
                /** @description 0 = Sunday, of the local day */
                weekday: number;
                /** @description the local hour, in the account's time zone */
                hour: number;
                /** @description clicks */
                clicks: number;
            }[];
            /** @description clicks per storefront page element, most clicked first, at most 500; at most 500 items */
            elements: {
                /** @description the storefront element clicked (offer card, button…) */
                element: string;
                /** @description clicks */
                clicks: number;
            }[];
            /** @description clicks per storefront page, most clicked first, at most 500; at most 500 items */
            pages: {
                /** @description the storefront page */
                page_id: string;
                /** @description clicks */
                clicks: number;
            }[];
        };
        /** @description A URL to convert into this account's affiliate link. */
        LinkConvertRequest: {
            /**
             * Format: uri
             * @description a product or listing page, or a short link of a marketplace (resolved first: at most 5 redirects)
             * @example https://www.amazon.com.br/dp/B0CHX1W1XY
             */
            url: string;
            /**
             * @description the integration to convert with; detected from the URL when omitted (`other` is chosen only by its hosts or by name)
             * @enum {string}
             */
            marketplace?: "amazon" | "mercadolivre" | "shopee" | "aliexpress" | "magalu" | "other";
            /** @description tracking label put in the marketplace's sub-id parameter of `affiliate_url` (each click of `short_url` carries its click id there instead) */
            sub_id?: string;
            /** @description the catalogue offer this link is for: its clicks count for the offer */
            offer_id?: string;
        };
        /** @description The result of a conversion. Only this account's integrations are used; credentials are never returned. */
        LinkConversion: {
            /** Format: uri */
            original_url: string;
            /**
             * Format: uri
             * @description where the short link given led; null when `original_url` was no short link
             */
            resolved_url: string | null;
            /**
             * Format: uri
             * @description the URL carrying this account's affiliate identity, others' tracking removed
             */
            affiliate_url: string;
            /** @enum {string} */
            marketplace: "amazon" | "mercadolivre" | "shopee" | "aliexpress" | "magalu" | "other";
            /** @description the account's own integration that converted it */
            integration: string;
            sub_id: string | null;
            /** @description the tracked link */
            link_id: string;
            /**
             * Format: uri
             * @description our tracked short link (`/l/{code}`): redirects to the affiliate URL and records the click
             */
            short_url: string;
            /** @description the offer given */
            offer_id: string | null;
        };
        /**
         * @description Whether the destination receives events.
         * @enum {string}
         */
        WebhookState: "enabled" | "disabled";
        /** @description An HTTPS destination for signed events. */
        WebhookCreate: {
            /**
             * Format: uri
             * @description HTTPS destination. Addresses that resolve to loopback, private, link-local or unique-local networks are refused (400 `validation_failed`); redirects are not followed.
             */
            url: string;
            /** @description the event kinds to deliver, each once; at most 49 items */
            events: ("*" | "application.created" | "application.revoked" | "channel.state_changed" | "commission.approved" | "commission.created" | "commission.status_changed" | "contact.created" | "contract_test.completed" | "conversation.closed" | "conversation.created" | "conversation.updated" | "coupon.created" | "coupon.deactivated" | "coupon.updated" | "group.updated" | "journey.created" | "journey.deleted" | "journey.updated" | "link.created" | "message.failed" | "message.received" | "message.sent" | "monitor.created" | "monitor.deleted" | "monitor.ran" | "monitor.updated" | "offer.archived" | "offer.created" | "offer.previewed" | "offer.updated" | "publication.completed" | "publication.queued" | "sandbox.reset" | "schedule.created" | "schedule.deleted" | "schedule.ran" | "schedule.updated" | "segment.created" | "segment.deleted" | "segment.updated" | "store.page_created" | "store.updated" | "template.created" | "template.deleted" | "template.updated" | "webhook.created" | "webhook.deleted" | "webhook.updated")[];
            description?: string;
            /**
             * @description `disabled` destinations receive nothing
             * @default enabled
             * @enum {string}
             */
            state: "enabled" | "disabled";
        };
        /** @description Only the fields sent change; `events` is replaced as a whole. The secret never changes. */
        WebhookUpdate: {
            /**
             * Format: uri
             * @description HTTPS destination. Addresses that resolve to loopback, private, link-local or unique-local networks are refused (400 `validation_failed`); redirects are not followed.
             */
            url?: string;
            /** @description the event kinds to deliver, each once; at most 49 items */
            events?: ("*" | "application.created" | "application.revoked" | "channel.state_changed" | "commission.approved" | "commission.created" | "commission.status_changed" | "contact.created" | "contract_test.completed" | "conversation.closed" | "conversation.created" | "conversation.updated" | "coupon.created" | "coupon.deactivated" | "coupon.updated" | "group.updated" | "journey.created" | "journey.deleted" | "journey.updated" | "link.created" | "message.failed" | "message.received" | "message.sent" | "monitor.created" | "monitor.deleted" | "monitor.ran" | "monitor.updated" | "offer.archived" | "offer.created" | "offer.previewed" | "offer.updated" | "publication.completed" | "publication.queued" | "sandbox.reset" | "schedule.created" | "schedule.deleted" | "schedule.ran" | "schedule.updated" | "segment.created" | "segment.deleted" | "segment.updated" | "store.page_created" | "store.updated" | "template.created" | "template.deleted" | "template.updated" | "webhook.created" | "webhook.deleted" | "webhook.updated")[];
            description?: string | null;
            /**
             * @description `disabled` destinations receive nothing
             * @enum {string}
             */
            state?: "enabled" | "disabled";
        };
        /** @description A webhook destination: safe configuration, never the secret. */
        Webhook: {
            id: string;
            /** Format: uri */
            url: string;
            /** @description subscribed event kinds, or `*` */
            events: string[];
            description: string | null;
            state: components["schemas"]["WebhookState"];
            /**
             * @description why it is disabled: by a PATCH, the destination answered 410, or deliveries kept failing; `destination_refused` only on webhooks an earlier version disabled when a worker refused the destination (a refusal is now a failed attempt); null when enabled
             * @enum {string|null}
             */
            disabled_reason: "manual" | "gone" | "failing" | "destination_refused" | null;
            /**
             * Format: date-time
             * @description the latest delivery attempt
             */
            last_delivery_at: string | null;
            /**
             * Format: date-time
             * @description creation time
             */
            created_at: string;
            /**
             * Format: date-time
             * @description last change
             */
            updated_at: string;
        };
        /** @description A newly created webhook with its signing secret, revealed this once. */
        WebhookWithSecret: {
            id: string;
            /** Format: uri */
            url: string;
            /** @description subscribed event kinds, or `*` */
            events: string[];
            description: string | null;
            state: components["schemas"]["WebhookState"];
            /**
             * @description why it is disabled: by a PATCH, the destination answered 410, or deliveries kept failing; `destination_refused` only on webhooks an earlier version disabled when a worker refused the destination (a refusal is now a failed attempt); null when enabled
             * @enum {string|null}
             */
            disabled_reason: "manual" | "gone" | "failing" | "destination_refused" | null;
            /**
             * Format: date-time
             * @description the latest delivery attempt
             */
            last_delivery_at: string | null;
            /**
             * Format: date-time
             * @description creation time
             */
            created_at: string;
            /**
             * Format: date-time
             * @description last change
             */
            updated_at: string;
            /** @description signing secret (Standard Webhooks: `whsec_` + base64). Returned only in this response — store it now; it is never shown again. */
            secret: string;
        };
        /** @description One HTTP attempt of a delivery. */
        WebhookDeliveryAttempt: {
            /** @description 1 for the first try */
            attempt: number;
            /**
             * Format: date-time
             * @description when the request was sent
             */
            at: string;
            /** @description status answered; null when no response came */
            http_status: number | null;
            /** @description time until the response or the failure */
            duration_ms: number;
            /** @description why the attempt failed (timeout, TLS, non-2xx…); null on success */
            error: string | null;
        };
        /** @description Delivery of one event to one webhook, with its attempts. */
        WebhookDelivery: {
            /** @description id of the delivery (its durable workflow id) */
            id: string;
            webhook_id: string;
            event_id: components["schemas"]["EventId"];
            /** @description an event kind, e.g. `offer.created` */
            event_kind: string;
            /**
             * @description `pending` before the first attempt, `retrying` between attempts, `succeeded` on a 2xx answer, `failed` when attempts ran out
             * @enum {string}
             */
            state: "pending" | "retrying" | "succeeded" | "failed";
            /** @description every attempt so far, oldest first; after a redelivery (the panel), the attempts before it (the last 40) and then its own, numbered on */
            attempts: components["schemas"]["WebhookDeliveryAttempt"][];
            /**
             * Format: date-time
             * @description when the next attempt is due; null unless `pending` or `retrying`
             */
            next_attempt_at: string | null;
            /**
             * Format: date-time
             * @description when the event was queued for this destination
             */
            created_at: string;
            /**
             * Format: date-time
             * @description last change
             */
            updated_at: string;
        };
        /** @description Result of DELETE /webhooks/{id}. */
        WebhookDeletion: {
            /** @description true: the webhook and its delivery history were removed */
            deleted: boolean;
            /** @description id of the resource */
            id: string;
            request_id: components["schemas"]["RequestId"];
        };
    };
    responses: {
        /** @description Invalid parameter, body or transition (`details` lists each invalid field). */
        Error400: {
            headers: {
                "X-Request-Id": components["headers"]["XRequestId"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "code": "invalid_request",
                 *       "message": "Invalid parameter, body or transition (`details` lists each invalid field).",
                 *       "request_id": "req_0a1b2c3d4e5f6a7b"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Key missing, invalid, expired or revoked. */
        Error401: {
            headers: {
                "X-Request-Id": components["headers"]["XRequestId"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "code": "missing_api_key",
                 *       "message": "Key missing, invalid, expired or revoked.",
                 *       "request_id": "req_0a1b2c3d4e5f6a7b"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The account plan does not include API access. */
        Error402: {
            headers: {
                "X-Request-Id": components["headers"]["XRequestId"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "code": "plan_required",
                 *       "message": "The account plan does not include API access.",
                 *       "request_id": "req_0a1b2c3d4e5f6a7b"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The key lacks the scope this operation requires. */
        Error403: {
            headers: {
                "X-Request-Id": components["headers"]["XRequestId"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "code": "insufficient_scope",
                 *       "message": "The key lacks the scope this operation requires.",
                 *       "request_id": "req_0a1b2c3d4e5f6a7b"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The resource does not exist in this account and environment. */
        Error404: {
            headers: {
                "X-Request-Id": components["headers"]["XRequestId"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "code": "not_found",
                 *       "message": "The resource does not exist in this account and environment.",
                 *       "request_id": "req_0a1b2c3d4e5f6a7b"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The request was not received in time (its head within 60 s, the whole of it within 5 minutes). */
        Error408: {
            headers: {
                "X-Request-Id": components["headers"]["XRequestId"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "code": "request_timeout",
                 *       "message": "The request was not received in time (its head within 60 s, the whole of it within 5 minutes).",
                 *       "request_id": "req_0a1b2c3d4e5f6a7b"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The current state of the resource prevents the operation. */
        Error409: {
            headers: {
                "X-Request-Id": components["headers"]["XRequestId"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "code": "conflict",
                 *       "message": "The current state of the resource prevents the operation.",
                 *       "request_id": "req_0a1b2c3d4e5f6a7b"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The JSON body exceeds 128 KB. */
        Error413: {
            headers: {
                "X-Request-Id": components["headers"]["XRequestId"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "code": "payload_too_large",
                 *       "message": "The JSON body exceeds 128 KB.",
                 *       "request_id": "req_0a1b2c3d4e5f6a7b"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The body is not JSON. */
        Error415: {
            headers: {
                "X-Request-Id": components["headers"]["XRequestId"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "code": "unsupported_media_type",
                 *       "message": "The body is not JSON.",
                 *       "request_id": "req_0a1b2c3d4e5f6a7b"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description More than 120 requests in the current one-minute window of this key. */
        Error429: {
            headers: {
                "X-Request-Id": components["headers"]["XRequestId"];
                /** @description Seconds until the window resets. */
                "Retry-After"?: number;
                /** @description Remaining requests and seconds to reset: `"default";r=0;t=42`. */
                RateLimit?: string;
                /** @description The policy: `"default";q=120;w=60`. */
                "RateLimit-Policy"?: string;
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "code": "rate_limited",
                 *       "message": "More than 120 requests in the current one-minute window of this key.",
                 *       "request_id": "req_0a1b2c3d4e5f6a7b"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The request head (request line and headers) exceeds 16 KB. */
        Error431: {
            headers: {
                "X-Request-Id": components["headers"]["XRequestId"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "code": "header_too_large",
                 *       "message": "The request head (request line and headers) exceeds 16 KB.",
                 *       "request_id": "req_0a1b2c3d4e5f6a7b"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description A dependency (the database or Temporal) did not answer in time, or the request ran past its 10 s deadline. A mutation may still have been applied: repeat it after `Retry-After` seconds with the same `Idempotency-Key` (applied at most once), or read the resource first. */
        Error503: {
            headers: {
                "X-Request-Id": components["headers"]["XRequestId"];
                /** @description Seconds to wait before repeating the request. */
                "Retry-After"?: number;
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "code": "service_unavailable",
                 *       "message": "A dependency (the database or Temporal) did not answer in time, or the request ran past its 10 s deadline. A mutation may still have been applied: repeat it after `Retry-After` seconds with the same `Idempotency-Key` (applied at most once), or read the resource first.",
                 *       "request_id": "req_0a1b2c3d4e5f6a7b"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Server failure (retry with backoff and jitter), or 501 when the operation is not built yet. */
        Error5XX: {
            headers: {
                "X-Request-Id": components["headers"]["XRequestId"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "code": "internal_error",
                 *       "message": "Server failure (retry with backoff and jitter), or 501 when the operation is not built yet.",
                 *       "request_id": "req_0a1b2c3d4e5f6a7b"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
    };
    parameters: {
        /** @description Makes a POST safe to repeat (a retry after a timeout): the first answer to a key (status and body) is kept 24 hours per credential and returned again for a repeat of the same request, with the header `Idempotent-Replayed: true`. The same key with another method, path or body is a 409 `idempotency_key_reused`; a repeat while the first request is still running is a 409 `idempotency_in_progress`. Server failures (5xx) are not kept: a repeat runs again. */
        IdempotencyKey: string;
    };
    requestBodies: never;
    headers: {
        /** @description The request id (`req_…`), also in every JSON body. */
        XRequestId: string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    account_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The account and actor. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "account": {
                     *           "id": "acc_example",
                     *           "name": "example",
                     *           "plan": "free",
                     *           "api_access": true,
                     *           "environment": "live",
                     *           "created_at": "2026-01-15T12:00:00Z"
                     *         },
                     *         "actor": {
                     *           "type": "api_key",
                     *           "key_id": "key_example",
                     *           "name": "example",
                     *           "prefix": "example",
                     *           "scopes": [
                     *             "account:read"
                     *           ],
                     *           "environment": "live",
                     *           "expires_at": "2026-01-15T12:00:00Z"
                     *         }
                     *       },
                     *       "request_id": "req_0a1b2c3d4e5f6a7b"
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Me"];
                        request_id: components["schemas"]["RequestId"];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            402: components["responses"]["Error402"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            503: components["responses"]["Error503"];
            "5XX": components["responses"]["Error5XX"];
        };
    };
    offers_list: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: number;
                /** @description Number of items to skip, 0 or more. */
                offset?: number;
                /** @description Only offers in this curation state. */
                status?: components["schemas"]["OfferStatus"];
                /** @description Only offers of this marketplace (exact match). */
                marketplace?: string;
                /** @description Case-insensitive search in title or store. */
                query?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of offers. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "off_0a1b2c3d4e5f6a7b",
                     *           "url": "example",
                     *           "title": "example",
                     *           "marketplace": "example",
                     *           "price": 1,
                     *           "original_price": 1,
                     *           "discount_pct": 1,
                     *           "currency": "example",
                     *           "image": "example",
                     *           "store": "example",
                     *           "category": "example",
                     *           "coupon": "example",
                     *           "coupon_id": "cpn_0a1b2c3d4e5f6a7b",
                     *           "copy": "example",
                     *           "status": "pending",
                     *           "status_history": [
                     *             {
                     *               "status": "pending",
                     *               "at": "2026-01-15T12:00:00Z"
                     *             }
                     *           ],
                     *           "created_at": "2026-01-15T12:00:00Z",
                     *           "updated_at": "2026-01-15T12:00:00Z",
                     *           "archived_at": "2026-01-15T12:00:00Z",
                     *           "monitor_id": "mon_0a1b2c3d4e5f6a7b"
                     *         }
                     *       ],
                     *       "pagination": {
                     *         "total": 1,
                     *         "limit": 1,
                     *         "offset": 1,
                     *         "has_more": true
                     *       },
                     *       "request_id": "req_0a1b2c3d4e5f6a7b"
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Offer"][];
                        pagination: components["schemas"]["Pagination"];
                        request_id: components["schemas"]["RequestId"];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            402: components["responses"]["Error402"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            503: components["responses"]["Error503"];
            "5XX": components["responses"]["Error5XX"];
        };
    };
    offer_create: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a POST safe to repeat (a retry after a timeout): the first answer to a key (status and body) is kept 24 hours per credential and returned again for a repeat of the same request, with the header `Idempotent-Replayed: true`. The same key with another method, path or body is a 409 `idempotency_key_reused`; a repeat while the first request is still running is a 409 `idempotency_in_progress`. Server failures (5xx) are not kept: a repeat runs again. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "url": "https://shop.example/p/cafeteira",
                 *       "title": "example"
                 *     }
                 */
                "application/json": components["schemas"]["OfferCreate"];
            };
        };
        responses: {
            /** @description An offer with this url already existed: returned unchanged with `created: false`. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "off_0a1b2c3d4e5f6a7b",
                     *         "url": "example",
                     *         "title": "example",
                     *         "marketplace": "example",
                     *         "price": 1,
                     *         "original_price": 1,
                     *         "discount_pct": 1,
                     *         "currency": "example",
                     *         "image": "example",
                     *         "store": "example",
                     *         "category": "example",
                     *         "coupon": "example",
                     *         "coupon_id": "cpn_0a1b2c3d4e5f6a7b",
                     *         "copy": "example",
                     *         "status": "pending",
                     *         "status_history": [
                     *           {
                     *             "status": "pending",
                     *             "at": "2026-01-15T12:00:00Z"
                     *           }
                     *         ],
                     *         "created_at": "2026-01-15T12:00:00Z",
                     *         "updated_at": "2026-01-15T12:00:00Z",
                     *         "archived_at": "2026-01-15T12:00:00Z",
                     *         "monitor_id": "mon_0a1b2c3d4e5f6a7b"
                     *       },
                     *       "request_id": "req_0a1b2c3d4e5f6a7b",
                     *       "created": true
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Offer"];
                        request_id: components["schemas"]["RequestId"];
                        /** @description true when this request created the resource, false when an existing one was returned */
                        created: boolean;
                    };
                };
            };
            /** @description A new pending offer (`created: true`). */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "off_0a1b2c3d4e5f6a7b",
                     *         "url": "example",
                     *         "title": "example",
                     *         "marketplace": "example",
                     *         "price": 1,
                     *         "original_price": 1,
                     *         "discount_pct": 1,
                     *         "currency": "example",
                     *         "image": "example",
                     *         "store": "example",
                     *         "category": "example",
                     *         "coupon": "example",
                     *         "coupon_id": "cpn_0a1b2c3d4e5f6a7b",
                     *         "copy": "example",
                     *         "status": "pending",
                     *         "status_history": [
                     *           {
                     *             "status": "pending",
                     *             "at": "2026-01-15T12:00:00Z"
                     *           }
                     *         ],
                     *         "created_at": "2026-01-15T12:00:00Z",
                     *         "updated_at": "2026-01-15T12:00:00Z",
                     *         "archived_at": "2026-01-15T12:00:00Z",
                     *         "monitor_id": "mon_0a1b2c3d4e5f6a7b"
                     *       },
                     *       "request_id": "req_0a1b2c3d4e5f6a7b",
                     *       "created": true
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Offer"];
                        request_id: components["schemas"]["RequestId"];
                        /** @description true when this request created the resource, false when an existing one was returned */
                        created: boolean;
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            402: components["responses"]["Error402"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            503: components["responses"]["Error503"];
            "5XX": components["responses"]["Error5XX"];
        };
    };
    offer_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the resource. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The offer. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "off_0a1b2c3d4e5f6a7b",
                     *         "url": "example",
                     *         "title": "example",
                     *         "marketplace": "example",
                     *         "price": 1,
                     *         "original_price": 1,
                     *         "discount_pct": 1,
                     *         "currency": "example",
                     *         "image": "example",
                     *         "store": "example",
                     *         "category": "example",
                     *         "coupon": "example",
                     *         "coupon_id": "cpn_0a1b2c3d4e5f6a7b",
                     *         "copy": "example",
                     *         "status": "pending",
                     *         "status_history": [
                     *           {
                     *             "status": "pending",
                     *             "at": "2026-01-15T12:00:00Z"
                     *           }
                     *         ],
                     *         "created_at": "2026-01-15T12:00:00Z",
                     *         "updated_at": "2026-01-15T12:00:00Z",
                     *         "archived_at": "2026-01-15T12:00:00Z",
                     *         "monitor_id": "mon_0a1b2c3d4e5f6a7b"
                     *       },
                     *       "request_id": "req_0a1b2c3d4e5f6a7b"
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Offer"];
                        request_id: components["schemas"]["RequestId"];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            402: components["responses"]["Error402"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            503: components["responses"]["Error503"];
            "5XX": components["responses"]["Error5XX"];
        };
    };
    offer_archive: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the resource. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The archive envelope. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "deleted": true,
                     *       "archived": true,
                     *       "id": "off_0a1b2c3d4e5f6a7b",
                     *       "request_id": "req_0a1b2c3d4e5f6a7b"
                     *     }
                     */
                    "application/json": components["schemas"]["OfferArchive"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            402: components["responses"]["Error402"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            503: components["responses"]["Error503"];
            "5XX": components["responses"]["Error5XX"];
        };
    };
    offer_update: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the resource. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                /** @example {} */
                "application/json": components["schemas"]["OfferUpdate"];
            };
        };
        responses: {
            /** @description The offer after the change. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "off_0a1b2c3d4e5f6a7b",
                     *         "url": "example",
                     *         "title": "example",
                     *         "marketplace": "example",
                     *         "price": 1,
                     *         "original_price": 1,
                     *         "discount_pct": 1,
                     *         "currency": "example",
                     *         "image": "example",
                     *         "store": "example",
                     *         "category": "example",
                     *         "coupon": "example",
                     *         "coupon_id": "cpn_0a1b2c3d4e5f6a7b",
                     *         "copy": "example",
                     *         "status": "pending",
                     *         "status_history": [
                     *           {
                     *             "status": "pending",
                     *             "at": "2026-01-15T12:00:00Z"
                     *           }
                     *         ],
                     *         "created_at": "2026-01-15T12:00:00Z",
                     *         "updated_at": "2026-01-15T12:00:00Z",
                     *         "archived_at": "2026-01-15T12:00:00Z",
                     *         "monitor_id": "mon_0a1b2c3d4e5f6a7b"
                     *       },
                     *       "request_id": "req_0a1b2c3d4e5f6a7b"
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Offer"];
                        request_id: components["schemas"]["RequestId"];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            402: components["responses"]["Error402"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            503: components["responses"]["Error503"];
            "5XX": components["responses"]["Error5XX"];
        };
    };
    offer_preview: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a POST safe to repeat (a retry after a timeout): the first answer to a key (status and body) is kept 24 hours per credential and returned again for a repeat of the same request, with the header `Idempotent-Replayed: true`. The same key with another method, path or body is a 409 `idempotency_key_reused`; a repeat while the first request is still running is a 409 `idempotency_in_progress`. Server failures (5xx) are not kept: a repeat runs again. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description Identifier of the resource. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                /** @example {} */
                "application/json": components["schemas"]["OfferPreviewRequest"];
            };
        };
        responses: {
            /** @description The assembled message. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "offer_id": "off_0a1b2c3d4e5f6a7b",
                     *         "segment_id": "seg_0a1b2c3d4e5f6a7b",
                     *         "template_id": "tpl_0a1b2c3d4e5f6a7b",
                     *         "text": "example",
                     *         "image": "example",
                     *         "length": 1
                     *       },
                     *       "event_id": "evt_0a1b2c3d4e5f6a7b",
                     *       "request_id": "req_0a1b2c3d4e5f6a7b"
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["OfferPreview"];
                        event_id: components["schemas"]["EventId"];
                        request_id: components["schemas"]["RequestId"];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            402: components["responses"]["Error402"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            503: components["responses"]["Error503"];
            "5XX": components["responses"]["Error5XX"];
        };
    };
    offer_publish: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a POST safe to repeat (a retry after a timeout): the first answer to a key (status and body) is kept 24 hours per credential and returned again for a repeat of the same request, with the header `Idempotent-Replayed: true`. The same key with another method, path or body is a 409 `idempotency_key_reused`; a repeat while the first request is still running is a 409 `idempotency_in_progress`. Server failures (5xx) are not kept: a repeat runs again. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description Identifier of the resource. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "group_id": "grp_0a1b2c3d4e5f6a7b"
                 *     }
                 */
                "application/json": components["schemas"]["OfferPublishRequest"];
            };
        };
        responses: {
            /** @description The queued publications. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "offer_id": "off_0a1b2c3d4e5f6a7b",
                     *         "publications": [
                     *           {
                     *             "id": "pub_0a1b2c3d4e5f6a7b",
                     *             "offer_id": "off_0a1b2c3d4e5f6a7b",
                     *             "group_id": "grp_0a1b2c3d4e5f6a7b",
                     *             "segment_id": "seg_0a1b2c3d4e5f6a7b",
                     *             "schedule_id": "sch_0a1b2c3d4e5f6a7b",
                     *             "template_id": "tpl_0a1b2c3d4e5f6a7b",
                     *             "text": "example",
                     *             "with_image": true,
                     *             "status": "queued",
                     *             "deliveries": [
                     *               {
                     *                 "group_id": "grp_0a1b2c3d4e5f6a7b",
                     *                 "status": "queued",
                     *                 "attempts": 1,
                     *                 "error": "example",
                     *                 "with_image": true,
                     *                 "sent_at": "2026-01-15T12:00:00Z"
                     *               }
                     *             ],
                     *             "event_id": "evt_0a1b2c3d4e5f6a7b",
                     *             "queued_at": "2026-01-15T12:00:00Z",
                     *             "completed_at": "2026-01-15T12:00:00Z",
                     *             "created_at": "2026-01-15T12:00:00Z",
                     *             "updated_at": "2026-01-15T12:00:00Z"
                     *           }
                     *         ]
                     *       },
                     *       "event_id": "evt_0a1b2c3d4e5f6a7b",
                     *       "request_id": "req_0a1b2c3d4e5f6a7b"
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["OfferPublishResult"];
                        event_id: components["schemas"]["EventId"];
                        request_id: components["schemas"]["RequestId"];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            402: components["responses"]["Error402"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            503: components["responses"]["Error503"];
            "5XX": components["responses"]["Error5XX"];
        };
    };
    groups_list: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: number;
                /** @description Number of items to skip, 0 or more. */
                offset?: number;
                /** @description Only groups linked to this segment. */
                segment_id?: string;
                /** @description Only active (true) or inactive (false) groups. */
                active?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of groups. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "grp_0a1b2c3d4e5f6a7b",
                     *           "name": "example",
                     *           "role": "distribution",
                     *           "segment_id": "seg_0a1b2c3d4e5f6a7b",
                     *           "channel_type": "example",
                     *           "capacity": 1,
                     *           "automation": true,
                     *           "active": true,
                     *           "created_at": "2026-01-15T12:00:00Z",
                     *           "updated_at": "2026-01-15T12:00:00Z"
                     *         }
                     *       ],
                     *       "pagination": {
                     *         "total": 1,
                     *         "limit": 1,
                     *         "offset": 1,
                     *         "has_more": true
                     *       },
                     *       "request_id": "req_0a1b2c3d4e5f6a7b"
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Group"][];
                        pagination: components["schemas"]["Pagination"];
                        request_id: components["schemas"]["RequestId"];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            402: components["responses"]["Error402"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            503: components["responses"]["Error503"];
            "5XX": components["responses"]["Error5XX"];
        };
    };
    group_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the resource. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The group. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "grp_0a1b2c3d4e5f6a7b",
                     *         "name": "example",
                     *         "role": "distribution",
                     *         "segment_id": "seg_0a1b2c3d4e5f6a7b",
                     *         "channel_type": "example",
                     *         "capacity": 1,
                     *         "automation": true,
                     *         "active": true,
                     *         "created_at": "2026-01-15T12:00:00Z",
                     *         "updated_at": "2026-01-15T12:00:00Z"
                     *       },
                     *       "request_id": "req_0a1b2c3d4e5f6a7b"
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Group"];
                        request_id: components["schemas"]["RequestId"];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            402: components["responses"]["Error402"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            503: components["responses"]["Error503"];
            "5XX": components["responses"]["Error5XX"];
        };
    };
    group_update: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the resource. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                /** @example {} */
                "application/json": components["schemas"]["GroupUpdate"];
            };
        };
        responses: {
            /** @description The group after the change. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "grp_0a1b2c3d4e5f6a7b",
                     *         "name": "example",
                     *         "role": "distribution",
                     *         "segment_id": "seg_0a1b2c3d4e5f6a7b",
                     *         "channel_type": "example",
                     *         "capacity": 1,
                     *         "automation": true,
                     *         "active": true,
                     *         "created_at": "2026-01-15T12:00:00Z",
                     *         "updated_at": "2026-01-15T12:00:00Z"
                     *       },
                     *       "request_id": "req_0a1b2c3d4e5f6a7b"
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Group"];
                        request_id: components["schemas"]["RequestId"];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            402: components["responses"]["Error402"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            503: components["responses"]["Error503"];
            "5XX": components["responses"]["Error5XX"];
        };
    };
    segments_list: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: number;
                /** @description Number of items to skip, 0 or more. */
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of segments. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "seg_0a1b2c3d4e5f6a7b",
                     *           "name": "example",
                     *           "slug": "example",
                     *           "description": "example",
                     *           "store_name": "example",
                     *           "store_tagline": "example",
                     *           "store_color": "example",
                     *           "auto_expand": true,
                     *           "distribution": "broadcast",
                     *           "waitlist": true,
                     *           "group_count": 1,
                     *           "created_at": "2026-01-15T12:00:00Z",
                     *           "updated_at": "2026-01-15T12:00:00Z"
                     *         }
                     *       ],
                     *       "pagination": {
                     *         "total": 1,
                     *         "limit": 1,
                     *         "offset": 1,
                     *         "has_more": true
                     *       },
                     *       "request_id": "req_0a1b2c3d4e5f6a7b"
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Segment"][];
                        pagination: components["schemas"]["Pagination"];
                        request_id: components["schemas"]["RequestId"];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            402: components["responses"]["Error402"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            503: components["responses"]["Error503"];
            "5XX": components["responses"]["Error5XX"];
        };
    };
    segment_create: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a POST safe to repeat (a retry after a timeout): the first answer to a key (status and body) is kept 24 hours per credential and returned again for a repeat of the same request, with the header `Idempotent-Replayed: true`. The same key with another method, path or body is a 409 `idempotency_key_reused`; a repeat while the first request is still running is a 409 `idempotency_in_progress`. Server failures (5xx) are not kept: a repeat runs again. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "example"
                 *     }
                 */
                "application/json": components["schemas"]["SegmentCreate"];
            };
        };
        responses: {
            /** @description The new segment. */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "seg_0a1b2c3d4e5f6a7b",
                     *         "name": "example",
                     *         "slug": "example",
                     *         "description": "example",
                     *         "store_name": "example",
                     *         "store_tagline": "example",
                     *         "store_color": "example",
                     *         "auto_expand": true,
                     *         "distribution": "broadcast",
                     *         "waitlist": true,
                     *         "group_count": 1,
                     *         "created_at": "2026-01-15T12:00:00Z",
                     *         "updated_at": "2026-01-15T12:00:00Z"
                     *       },
                     *       "request_id": "req_0a1b2c3d4e5f6a7b",
                     *       "created": true
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Segment"];
                        request_id: components["schemas"]["RequestId"];
                        /** @description true when this request created the resource, false when an existing one was returned */
                        created: boolean;
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            402: components["responses"]["Error402"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            503: components["responses"]["Error503"];
            "5XX": components["responses"]["Error5XX"];
        };
    };
    segment_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the resource. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The segment. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "seg_0a1b2c3d4e5f6a7b",
                     *         "name": "example",
                     *         "slug": "example",
                     *         "description": "example",
                     *         "store_name": "example",
                     *         "store_tagline": "example",
                     *         "store_color": "example",
                     *         "auto_expand": true,
                     *         "distribution": "broadcast",
                     *         "waitlist": true,
                     *         "group_count": 1,
                     *         "created_at": "2026-01-15T12:00:00Z",
                     *         "updated_at": "2026-01-15T12:00:00Z"
                     *       },
                     *       "request_id": "req_0a1b2c3d4e5f6a7b"
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Segment"];
                        request_id: components["schemas"]["RequestId"];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            402: components["responses"]["Error402"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            503: components["responses"]["Error503"];
            "5XX": components["responses"]["Error5XX"];
        };
    };
    segment_delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the resource. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The deletion envelope. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "deleted": true,
                     *       "id": "example",
                     *       "request_id": "req_0a1b2c3d4e5f6a7b"
                     *     }
                     */
                    "application/json": components["schemas"]["SegmentDeletion"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            402: components["responses"]["Error402"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            503: components["responses"]["Error503"];
            "5XX": components["responses"]["Error5XX"];
        };
    };
    segment_update: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the resource. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                /** @example {} */
                "application/json": components["schemas"]["SegmentUpdate"];
            };
        };
        responses: {
            /** @description The segment after the change. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "seg_0a1b2c3d4e5f6a7b",
                     *         "name": "example",
                     *         "slug": "example",
                     *         "description": "example",
                     *         "store_name": "example",
                     *         "store_tagline": "example",
                     *         "store_color": "example",
                     *         "auto_expand": true,
                     *         "distribution": "broadcast",
                     *         "waitlist": true,
                     *         "group_count": 1,
                     *         "created_at": "2026-01-15T12:00:00Z",
                     *         "updated_at": "2026-01-15T12:00:00Z"
                     *       },
                     *       "request_id": "req_0a1b2c3d4e5f6a7b"
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Segment"];
                        request_id: components["schemas"]["RequestId"];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            402: components["responses"]["Error402"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            503: components["responses"]["Error503"];
            "5XX": components["responses"]["Error5XX"];
        };
    };
    coupons_list: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: number;
                /** @description Number of items to skip, 0 or more. */
                offset?: number;
                /** @description Only coupons in this state; `any` for every state. */
                status?: "active" | "scheduled" | "expired" | "inactive" | "any";
                /** @description Only verified coupons, only unverified ones, or `any`. */
                verification?: "verified" | "unverified" | "any";
                /** @description Only coupons of this store (case-insensitive exact match). */
                store?: string;
                /** @description Only coupons of this marketplace. */
                marketplace?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of coupons. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "cpn_0a1b2c3d4e5f6a7b",
                     *           "code": "example",
                     *           "store": "example",
                     *           "marketplace": "example",
                     *           "description": "example",
                     *           "discount": {
                     *             "type": "percent",
                     *             "value": 1,
                     *             "max_amount": 1
                     *           },
                     *           "currency": "example",
                     *           "min_purchase": 1,
                     *           "first_purchase_only": true,
                     *           "categories": [
                     *             "example"
                     *           ],
                     *           "url": "example",
                     *           "starts_at": "2026-01-15T12:00:00Z",
                     *           "expires_at": "2026-01-15T12:00:00Z",
                     *           "verified": true,
                     *           "verified_at": "2026-01-15T12:00:00Z",
                     *           "active": true,
                     *           "status": "active",
                     *           "created_at": "2026-01-15T12:00:00Z",
                     *           "updated_at": "2026-01-15T12:00:00Z",
                     *           "deactivated_at": "2026-01-15T12:00:00Z",
                     *           "history": [
                     *             {
                     *               "at": "2026-01-15T12:00:00Z",
                     *               "change": "created",
                     *               "fields": [
                     *                 "example"
                     *               ]
                     *             }
                     *           ]
                     *         }
                     *       ],
                     *       "pagination": {
                     *         "total": 1,
                     *         "limit": 1,
                     *         "offset": 1,
                     *         "has_more": true
                     *       },
                     *       "request_id": "req_0a1b2c3d4e5f6a7b"
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Coupon"][];
                        pagination: components["schemas"]["Pagination"];
                        request_id: components["schemas"]["RequestId"];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            402: components["responses"]["Error402"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            503: components["responses"]["Error503"];
            "5XX": components["responses"]["Error5XX"];
        };
    };
    coupon_create: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a POST safe to repeat (a retry after a timeout): the first answer to a key (status and body) is kept 24 hours per credential and returned again for a repeat of the same request, with the header `Idempotent-Replayed: true`. The same key with another method, path or body is a 409 `idempotency_key_reused`; a repeat while the first request is still running is a 409 `idempotency_in_progress`. Server failures (5xx) are not kept: a repeat runs again. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "code": "0a1b2c3d4e5f6a7b",
                 *       "store": "example",
                 *       "discount": {
                 *         "type": "percent",
                 *         "value": 1
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["CouponCreate"];
            };
        };
        responses: {
            /** @description The new coupon. */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "cpn_0a1b2c3d4e5f6a7b",
                     *         "code": "example",
                     *         "store": "example",
                     *         "marketplace": "example",
                     *         "description": "example",
                     *         "discount": {
                     *           "type": "percent",
                     *           "value": 1,
                     *           "max_amount": 1
                     *         },
                     *         "currency": "example",
                     *         "min_purchase": 1,
                     *         "first_purchase_only": true,
                     *         "categories": [
                     *           "example"
                     *         ],
                     *         "url": "example",
                     *         "starts_at": "2026-01-15T12:00:00Z",
                     *         "expires_at": "2026-01-15T12:00:00Z",
                     *         "verified": true,
                     *         "verified_at": "2026-01-15T12:00:00Z",
                     *         "active": true,
                     *         "status": "active",
                     *         "created_at": "2026-01-15T12:00:00Z",
                     *         "updated_at": "2026-01-15T12:00:00Z",
                     *         "deactivated_at": "2026-01-15T12:00:00Z",
                     *         "history": [
                     *           {
                     *             "at": "2026-01-15T12:00:00Z",
                     *             "change": "created",
                     *             "fields": [
                     *               "example"
                     *             ]
                     *           }
                     *         ]
                     *       },
                     *       "request_id": "req_0a1b2c3d4e5f6a7b",
                     *       "created": true
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Coupon"];
                        request_id: components["schemas"]["RequestId"];
                        /** @description true when this request created the resource, false when an existing one was returned */
                        created: boolean;
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            402: components["responses"]["Error402"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            503: components["responses"]["Error503"];
            "5XX": components["responses"]["Error5XX"];
        };
    };
    coupon_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the resource. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The coupon. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "cpn_0a1b2c3d4e5f6a7b",
                     *         "code": "example",
                     *         "store": "example",
                     *         "marketplace": "example",
                     *         "description": "example",
                     *         "discount": {
                     *           "type": "percent",
                     *           "value": 1,
                     *           "max_amount": 1
                     *         },
                     *         "currency": "example",
                     *         "min_purchase": 1,
                     *         "first_purchase_only": true,
                     *         "categories": [
                     *           "example"
                     *         ],
                     *         "url": "example",
                     *         "starts_at": "2026-01-15T12:00:00Z",
                     *         "expires_at": "2026-01-15T12:00:00Z",
                     *         "verified": true,
                     *         "verified_at": "2026-01-15T12:00:00Z",
                     *         "active": true,
                     *         "status": "active",
                     *         "created_at": "2026-01-15T12:00:00Z",
                     *         "updated_at": "2026-01-15T12:00:00Z",
                     *         "deactivated_at": "2026-01-15T12:00:00Z",
                     *         "history": [
                     *           {
                     *             "at": "2026-01-15T12:00:00Z",
                     *             "change": "created",
                     *             "fields": [
                     *               "example"
                     *             ]
                     *           }
                     *         ]
                     *       },
                     *       "request_id": "req_0a1b2c3d4e5f6a7b"
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Coupon"];
                        request_id: components["schemas"]["RequestId"];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            402: components["responses"]["Error402"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            503: components["responses"]["Error503"];
            "5XX": components["responses"]["Error5XX"];
        };
    };
    coupon_deactivate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the resource. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The deactivation envelope. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "deleted": true,
                     *       "deactivated": true,
                     *       "id": "cpn_0a1b2c3d4e5f6a7b",
                     *       "request_id": "req_0a1b2c3d4e5f6a7b"
                     *     }
                     */
                    "application/json": components["schemas"]["CouponDeactivation"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            402: components["responses"]["Error402"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            503: components["responses"]["Error503"];
            "5XX": components["responses"]["Error5XX"];
        };
    };
    coupon_update: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the resource. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                /** @example {} */
                "application/json": components["schemas"]["CouponUpdate"];
            };
        };
        responses: {
            /** @description The coupon after the change. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "cpn_0a1b2c3d4e5f6a7b",
                     *         "code": "example",
                     *         "store": "example",
                     *         "marketplace": "example",
                     *         "description": "example",
                     *         "discount": {
                     *           "type": "percent",
                     *           "value": 1,
                     *           "max_amount": 1
                     *         },
                     *         "currency": "example",
                     *         "min_purchase": 1,
                     *         "first_purchase_only": true,
                     *         "categories": [
                     *           "example"
                     *         ],
                     *         "url": "example",
                     *         "starts_at": "2026-01-15T12:00:00Z",
                     *         "expires_at": "2026-01-15T12:00:00Z",
                     *         "verified": true,
                     *         "verified_at": "2026-01-15T12:00:00Z",
                     *         "active": true,
                     *         "status": "active",
                     *         "created_at": "2026-01-15T12:00:00Z",
                     *         "updated_at": "2026-01-15T12:00:00Z",
                     *         "deactivated_at": "2026-01-15T12:00:00Z",
                     *         "history": [
                     *           {
                     *             "at": "2026-01-15T12:00:00Z",
                     *             "change": "created",
                     *             "fields": [
                     *               "example"
                     *             ]
                     *           }
                     *         ]
                     *       },
                     *       "request_id": "req_0a1b2c3d4e5f6a7b"
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Coupon"];
                        request_id: components["schemas"]["RequestId"];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            402: components["responses"]["Error402"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            503: components["responses"]["Error503"];
            "5XX": components["responses"]["Error5XX"];
        };
    };
    commissions_list: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: number;
                /** @description Number of items to skip, 0 or more. */
                offset?: number;
                /** @description Only commissions in this payment status. */
                status?: components["schemas"]["CommissionStatus"];
                /** @description Only commissions of this marketplace. */
                marketplace?: string;
                /** @description Only commissions in this currency. */
                currency?: string;
                /** @description Only commissions attributed to this offer. */
                offer_id?: string;
                /** @description Only orders placed at or after this instant. */
                from?: string;
                /** @description Only orders placed before this instant. */
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of commissions. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "com_0a1b2c3d4e5f6a7b",
                     *           "marketplace": "example",
                     *           "transaction_id": "example",
                     *           "order_ref": "example",
                     *           "amount_minor": 1,
                     *           "amount": "123.50",
                     *           "order_amount_minor": 1,
                     *           "currency": "example",
                     *           "status": "pending",
                     *           "status_at": "2026-01-15T12:00:00Z",
                     *           "attribution": {
                     *             "method": "click",
                     *             "click_id": "example",
                     *             "offer_id": "off_0a1b2c3d4e5f6a7b",
                     *             "publication_id": "pub_0a1b2c3d4e5f6a7b",
                     *             "group_id": "grp_0a1b2c3d4e5f6a7b",
                     *             "segment_id": "seg_0a1b2c3d4e5f6a7b"
                     *           },
                     *           "history": [
                     *             {
                     *               "status": "pending",
                     *               "amount_minor": 1,
                     *               "at": "2026-01-15T12:00:00Z",
                     *               "received_at": "2026-01-15T12:00:00Z",
                     *               "source": "postback",
                     *               "applied": true
                     *             }
                     *           ],
                     *           "occurred_at": "2026-01-15T12:00:00Z",
                     *           "paid_at": "2026-01-15T12:00:00Z",
                     *           "created_at": "2026-01-15T12:00:00Z",
                     *           "updated_at": "2026-01-15T12:00:00Z"
                     *         }
                     *       ],
                     *       "pagination": {
                     *         "total": 1,
                     *         "limit": 1,
                     *         "offset": 1,
                     *         "has_more": true
                     *       },
                     *       "request_id": "req_0a1b2c3d4e5f6a7b"
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Commission"][];
                        pagination: components["schemas"]["Pagination"];
                        request_id: components["schemas"]["RequestId"];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            402: components["responses"]["Error402"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            503: components["responses"]["Error503"];
            "5XX": components["responses"]["Error5XX"];
        };
    };
    commissions_summary: {
        parameters: {
            query?: {
                /** @description Only commissions of this marketplace. */
                marketplace?: string;
                /** @description Only orders placed at or after this instant. */
                from?: string;
                /** @description Only orders placed before this instant. */
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The totals. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "totals": [
                     *           {
                     *             "currency": "example",
                     *             "status": "pending",
                     *             "count": 1,
                     *             "amount_minor": 1,
                     *             "amount": "123.50"
                     *           }
                     *         ]
                     *       },
                     *       "request_id": "req_0a1b2c3d4e5f6a7b"
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["CommissionSummary"];
                        request_id: components["schemas"]["RequestId"];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            402: components["responses"]["Error402"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            503: components["responses"]["Error503"];
            "5XX": components["responses"]["Error5XX"];
        };
    };
    commission_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the resource. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The commission. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "com_0a1b2c3d4e5f6a7b",
                     *         "marketplace": "example",
                     *         "transaction_id": "example",
                     *         "order_ref": "example",
                     *         "amount_minor": 1,
                     *         "amount": "123.50",
                     *         "order_amount_minor": 1,
                     *         "currency": "example",
                     *         "status": "pending",
                     *         "status_at": "2026-01-15T12:00:00Z",
                     *         "attribution": {
                     *           "method": "click",
                     *           "click_id": "example",
                     *           "offer_id": "off_0a1b2c3d4e5f6a7b",
                     *           "publication_id": "pub_0a1b2c3d4e5f6a7b",
                     *           "group_id": "grp_0a1b2c3d4e5f6a7b",
                     *           "segment_id": "seg_0a1b2c3d4e5f6a7b"
                     *         },
                     *         "history": [
                     *           {
                     *             "status": "pending",
                     *             "amount_minor": 1,
                     *             "at": "2026-01-15T12:00:00Z",
                     *             "received_at": "2026-01-15T12:00:00Z",
                     *             "source": "postback",
                     *             "applied": true
                     *           }
                     *         ],
                     *         "occurred_at": "2026-01-15T12:00:00Z",
                     *         "paid_at": "2026-01-15T12:00:00Z",
                     *         "created_at": "2026-01-15T12:00:00Z",
                     *         "updated_at": "2026-01-15T12:00:00Z"
                     *       },
                     *       "request_id": "req_0a1b2c3d4e5f6a7b"
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Commission"];
                        request_id: components["schemas"]["RequestId"];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            402: components["responses"]["Error402"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            503: components["responses"]["Error503"];
            "5XX": components["responses"]["Error5XX"];
        };
    };
    publications_list: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: number;
                /** @description Number of items to skip, 0 or more. */
                offset?: number;
                /** @description Only publications in this state. */
                status?: components["schemas"]["PublicationStatus"];
                /** @description Only publications with a delivery to this group. */
                group_id?: string;
                /** @description Only publications of this offer. */
                offer_id?: string;
                /** @description Only publications addressed to this segment. */
                segment_id?: string;
                /** @description Only publications produced by this schedule. */
                schedule_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of publications. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "pub_0a1b2c3d4e5f6a7b",
                     *           "offer_id": "off_0a1b2c3d4e5f6a7b",
                     *           "group_id": "grp_0a1b2c3d4e5f6a7b",
                     *           "segment_id": "seg_0a1b2c3d4e5f6a7b",
                     *           "schedule_id": "sch_0a1b2c3d4e5f6a7b",
                     *           "template_id": "tpl_0a1b2c3d4e5f6a7b",
                     *           "text": "example",
                     *           "with_image": true,
                     *           "status": "queued",
                     *           "deliveries": [
                     *             {
                     *               "group_id": "grp_0a1b2c3d4e5f6a7b",
                     *               "status": "queued",
                     *               "attempts": 1,
                     *               "error": "example",
                     *               "with_image": true,
                     *               "sent_at": "2026-01-15T12:00:00Z"
                     *             }
                     *           ],
                     *           "event_id": "evt_0a1b2c3d4e5f6a7b",
                     *           "queued_at": "2026-01-15T12:00:00Z",
                     *           "completed_at": "2026-01-15T12:00:00Z",
                     *           "created_at": "2026-01-15T12:00:00Z",
                     *           "updated_at": "2026-01-15T12:00:00Z"
                     *         }
                     *       ],
                     *       "pagination": {
                     *         "total": 1,
                     *         "limit": 1,
                     *         "offset": 1,
                     *         "has_more": true
                     *       },
                     *       "request_id": "req_0a1b2c3d4e5f6a7b"
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Publication"][];
                        pagination: components["schemas"]["Pagination"];
                        request_id: components["schemas"]["RequestId"];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            402: components["responses"]["Error402"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            503: components["responses"]["Error503"];
            "5XX": components["responses"]["Error5XX"];
        };
    };
    publication_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the resource. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The publication. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "pub_0a1b2c3d4e5f6a7b",
                     *         "offer_id": "off_0a1b2c3d4e5f6a7b",
                     *         "group_id": "grp_0a1b2c3d4e5f6a7b",
                     *         "segment_id": "seg_0a1b2c3d4e5f6a7b",
                     *         "schedule_id": "sch_0a1b2c3d4e5f6a7b",
                     *         "template_id": "tpl_0a1b2c3d4e5f6a7b",
                     *         "text": "example",
                     *         "with_image": true,
                     *         "status": "queued",
                     *         "deliveries": [
                     *           {
                     *             "group_id": "grp_0a1b2c3d4e5f6a7b",
                     *             "status": "queued",
                     *             "attempts": 1,
                     *             "error": "example",
                     *             "with_image": true,
                     *             "sent_at": "2026-01-15T12:00:00Z"
                     *           }
                     *         ],
                     *         "event_id": "evt_0a1b2c3d4e5f6a7b",
                     *         "queued_at": "2026-01-15T12:00:00Z",
                     *         "completed_at": "2026-01-15T12:00:00Z",
                     *         "created_at": "2026-01-15T12:00:00Z",
                     *         "updated_at": "2026-01-15T12:00:00Z"
                     *       },
                     *       "request_id": "req_0a1b2c3d4e5f6a7b"
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Publication"];
                        request_id: components["schemas"]["RequestId"];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            402: components["responses"]["Error402"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            503: components["responses"]["Error503"];
            "5XX": components["responses"]["Error5XX"];
        };
    };
    templates_list: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: number;
                /** @description Number of items to skip, 0 or more. */
                offset?: number;
                /** @description Only templates of this segment. */
                segment_id?: string;
                /** @description Only templates of this format. */
                format?: components["schemas"]["TemplateFormat"];
                /** @description Only default templates (`true`) or only the others (`false`). */
                is_default?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of templates. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "tpl_0a1b2c3d4e5f6a7b",
                     *           "name": "example",
                     *           "description": "example",
                     *           "body": "example",
                     *           "format": "plain",
                     *           "is_default": true,
                     *           "segment_id": "seg_0a1b2c3d4e5f6a7b",
                     *           "placeholders": [
                     *             "title"
                     *           ],
                     *           "schedule_count": 1,
                     *           "created_at": "2026-01-15T12:00:00Z",
                     *           "updated_at": "2026-01-15T12:00:00Z"
                     *         }
                     *       ],
                     *       "pagination": {
                     *         "total": 1,
                     *         "limit": 1,
                     *         "offset": 1,
                     *         "has_more": true
                     *       },
                     *       "request_id": "req_0a1b2c3d4e5f6a7b"
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Template"][];
                        pagination: components["schemas"]["Pagination"];
                        request_id: components["schemas"]["RequestId"];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            402: components["responses"]["Error402"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            503: components["responses"]["Error503"];
            "5XX": components["responses"]["Error5XX"];
        };
    };
    template_create: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a POST safe to repeat (a retry after a timeout): the first answer to a key (status and body) is kept 24 hours per credential and returned again for a repeat of the same request, with the header `Idempotent-Replayed: true`. The same key with another method, path or body is a 409 `idempotency_key_reused`; a repeat while the first request is still running is a 409 `idempotency_in_progress`. Server failures (5xx) are not kept: a repeat runs again. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "example",
                 *       "body": "example"
                 *     }
                 */
                "application/json": components["schemas"]["TemplateCreate"];
            };
        };
        responses: {
            /** @description The new template. */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "tpl_0a1b2c3d4e5f6a7b",
                     *         "name": "example",
                     *         "description": "example",
                     *         "body": "example",
                     *         "format": "plain",
                     *         "is_default": true,
                     *         "segment_id": "seg_0a1b2c3d4e5f6a7b",
                     *         "placeholders": [
                     *           "title"
                     *         ],
                     *         "schedule_count": 1,
                     *         "created_at": "2026-01-15T12:00:00Z",
                     *         "updated_at": "2026-01-15T12:00:00Z"
                     *       },
                     *       "request_id": "req_0a1b2c3d4e5f6a7b",
                     *       "created": true
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Template"];
                        request_id: components["schemas"]["RequestId"];
                        /** @description true when this request created the resource, false when an existing one was returned */
                        created: boolean;
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            402: components["responses"]["Error402"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            503: components["responses"]["Error503"];
            "5XX": components["responses"]["Error5XX"];
        };
    };
    template_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the resource. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The template. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "tpl_0a1b2c3d4e5f6a7b",
                     *         "name": "example",
                     *         "description": "example",
                     *         "body": "example",
                     *         "format": "plain",
                     *         "is_default": true,
                     *         "segment_id": "seg_0a1b2c3d4e5f6a7b",
                     *         "placeholders": [
                     *           "title"
                     *         ],
                     *         "schedule_count": 1,
                     *         "created_at": "2026-01-15T12:00:00Z",
                     *         "updated_at": "2026-01-15T12:00:00Z"
                     *       },
                     *       "request_id": "req_0a1b2c3d4e5f6a7b"
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Template"];
                        request_id: components["schemas"]["RequestId"];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            402: components["responses"]["Error402"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            503: components["responses"]["Error503"];
            "5XX": components["responses"]["Error5XX"];
        };
    };
    template_delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the resource. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The deletion envelope. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "deleted": true,
                     *       "id": "example",
                     *       "request_id": "req_0a1b2c3d4e5f6a7b"
                     *     }
                     */
                    "application/json": components["schemas"]["TemplateDeletion"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            402: components["responses"]["Error402"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            503: components["responses"]["Error503"];
            "5XX": components["responses"]["Error5XX"];
        };
    };
    template_update: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the resource. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                /** @example {} */
                "application/json": components["schemas"]["TemplateUpdate"];
            };
        };
        responses: {
            /** @description The template after the change. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "tpl_0a1b2c3d4e5f6a7b",
                     *         "name": "example",
                     *         "description": "example",
                     *         "body": "example",
                     *         "format": "plain",
                     *         "is_default": true,
                     *         "segment_id": "seg_0a1b2c3d4e5f6a7b",
                     *         "placeholders": [
                     *           "title"
                     *         ],
                     *         "schedule_count": 1,
                     *         "created_at": "2026-01-15T12:00:00Z",
                     *         "updated_at": "2026-01-15T12:00:00Z"
                     *       },
                     *       "request_id": "req_0a1b2c3d4e5f6a7b"
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Template"];
                        request_id: components["schemas"]["RequestId"];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            402: components["responses"]["Error402"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            503: components["responses"]["Error503"];
            "5XX": components["responses"]["Error5XX"];
        };
    };
    schedules_list: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: number;
                /** @description Number of items to skip, 0 or more. */
                offset?: number;
                /** @description Only schedules in this state. */
                status?: components["schemas"]["ScheduleStatus"];
                /** @description Only schedules to this group. */
                group_id?: string;
                /** @description Only schedules to this segment. */
                segment_id?: string;
                /** @description Only schedules of this offer. */
                offer_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of schedules. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "sch_0a1b2c3d4e5f6a7b",
                     *           "name": "example",
                     *           "offer_id": "off_0a1b2c3d4e5f6a7b",
                     *           "text": "example",
                     *           "group_id": "grp_0a1b2c3d4e5f6a7b",
                     *           "segment_id": "seg_0a1b2c3d4e5f6a7b",
                     *           "template_id": "tpl_0a1b2c3d4e5f6a7b",
                     *           "with_image": true,
                     *           "run_at": "2026-01-15T12:00:00Z",
                     *           "recurrence": {
                     *             "rrule": "example",
                     *             "cron": "example",
                     *             "timezone": "example",
                     *             "ends_at": "2026-01-15T12:00:00Z"
                     *           },
                     *           "status": "active",
                     *           "next_run_at": "2026-01-15T12:00:00Z",
                     *           "last_run_at": "2026-01-15T12:00:00Z",
                     *           "run_count": 1,
                     *           "created_at": "2026-01-15T12:00:00Z",
                     *           "updated_at": "2026-01-15T12:00:00Z"
                     *         }
                     *       ],
                     *       "pagination": {
                     *         "total": 1,
                     *         "limit": 1,
                     *         "offset": 1,
                     *         "has_more": true
                     *       },
                     *       "request_id": "req_0a1b2c3d4e5f6a7b"
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Schedule"][];
                        pagination: components["schemas"]["Pagination"];
                        request_id: components["schemas"]["RequestId"];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            402: components["responses"]["Error402"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            503: components["responses"]["Error503"];
            "5XX": components["responses"]["Error5XX"];
        };
    };
    schedule_create: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a POST safe to repeat (a retry after a timeout): the first answer to a key (status and body) is kept 24 hours per credential and returned again for a repeat of the same request, with the header `Idempotent-Replayed: true`. The same key with another method, path or body is a 409 `idempotency_key_reused`; a repeat while the first request is still running is a 409 `idempotency_in_progress`. Server failures (5xx) are not kept: a repeat runs again. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "offer_id": "off_0a1b2c3d4e5f6a7b",
                 *       "group_id": "grp_0a1b2c3d4e5f6a7b",
                 *       "run_at": "2026-01-15T12:00:00Z"
                 *     }
                 */
                "application/json": components["schemas"]["ScheduleCreate"];
            };
        };
        responses: {
            /** @description The new schedule, `active`. */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "sch_0a1b2c3d4e5f6a7b",
                     *         "name": "example",
                     *         "offer_id": "off_0a1b2c3d4e5f6a7b",
                     *         "text": "example",
                     *         "group_id": "grp_0a1b2c3d4e5f6a7b",
                     *         "segment_id": "seg_0a1b2c3d4e5f6a7b",
                     *         "template_id": "tpl_0a1b2c3d4e5f6a7b",
                     *         "with_image": true,
                     *         "run_at": "2026-01-15T12:00:00Z",
                     *         "recurrence": {
                     *           "rrule": "example",
                     *           "cron": "example",
                     *           "timezone": "example",
                     *           "ends_at": "2026-01-15T12:00:00Z"
                     *         },
                     *         "status": "active",
                     *         "next_run_at": "2026-01-15T12:00:00Z",
                     *         "last_run_at": "2026-01-15T12:00:00Z",
                     *         "run_count": 1,
                     *         "created_at": "2026-01-15T12:00:00Z",
                     *         "updated_at": "2026-01-15T12:00:00Z"
                     *       },
                     *       "request_id": "req_0a1b2c3d4e5f6a7b",
                     *       "created": true
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Schedule"];
                        request_id: components["schemas"]["RequestId"];
                        /** @description true when this request created the resource, false when an existing one was returned */
                        created: boolean;
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            402: components["responses"]["Error402"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            503: components["responses"]["Error503"];
            "5XX": components["responses"]["Error5XX"];
        };
    };
    schedule_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the resource. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The schedule. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "sch_0a1b2c3d4e5f6a7b",
                     *         "name": "example",
                     *         "offer_id": "off_0a1b2c3d4e5f6a7b",
                     *         "text": "example",
                     *         "group_id": "grp_0a1b2c3d4e5f6a7b",
                     *         "segment_id": "seg_0a1b2c3d4e5f6a7b",
                     *         "template_id": "tpl_0a1b2c3d4e5f6a7b",
                     *         "with_image": true,
                     *         "run_at": "2026-01-15T12:00:00Z",
                     *         "recurrence": {
                     *           "rrule": "example",
                     *           "cron": "example",
                     *           "timezone": "example",
                     *           "ends_at": "2026-01-15T12:00:00Z"
                     *         },
                     *         "status": "active",
                     *         "next_run_at": "2026-01-15T12:00:00Z",
                     *         "last_run_at": "2026-01-15T12:00:00Z",
                     *         "run_count": 1,
                     *         "created_at": "2026-01-15T12:00:00Z",
                     *         "updated_at": "2026-01-15T12:00:00Z"
                     *       },
                     *       "request_id": "req_0a1b2c3d4e5f6a7b"
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Schedule"];
                        request_id: components["schemas"]["RequestId"];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            402: components["responses"]["Error402"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            503: components["responses"]["Error503"];
            "5XX": components["responses"]["Error5XX"];
        };
    };
    schedule_delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the resource. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The deletion envelope. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "deleted": true,
                     *       "id": "example",
                     *       "request_id": "req_0a1b2c3d4e5f6a7b"
                     *     }
                     */
                    "application/json": components["schemas"]["ScheduleDeletion"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            402: components["responses"]["Error402"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            503: components["responses"]["Error503"];
            "5XX": components["responses"]["Error5XX"];
        };
    };
    schedule_update: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the resource. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                /** @example {} */
                "application/json": components["schemas"]["ScheduleUpdate"];
            };
        };
        responses: {
            /** @description The schedule after the change. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "sch_0a1b2c3d4e5f6a7b",
                     *         "name": "example",
                     *         "offer_id": "off_0a1b2c3d4e5f6a7b",
                     *         "text": "example",
                     *         "group_id": "grp_0a1b2c3d4e5f6a7b",
                     *         "segment_id": "seg_0a1b2c3d4e5f6a7b",
                     *         "template_id": "tpl_0a1b2c3d4e5f6a7b",
                     *         "with_image": true,
                     *         "run_at": "2026-01-15T12:00:00Z",
                     *         "recurrence": {
                     *           "rrule": "example",
                     *           "cron": "example",
                     *           "timezone": "example",
                     *           "ends_at": "2026-01-15T12:00:00Z"
                     *         },
                     *         "status": "active",
                     *         "next_run_at": "2026-01-15T12:00:00Z",
                     *         "last_run_at": "2026-01-15T12:00:00Z",
                     *         "run_count": 1,
                     *         "created_at": "2026-01-15T12:00:00Z",
                     *         "updated_at": "2026-01-15T12:00:00Z"
                     *       },
                     *       "request_id": "req_0a1b2c3d4e5f6a7b"
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Schedule"];
                        request_id: components["schemas"]["RequestId"];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            402: components["responses"]["Error402"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            503: components["responses"]["Error503"];
            "5XX": components["responses"]["Error5XX"];
        };
    };
    schedule_run: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a POST safe to repeat (a retry after a timeout): the first answer to a key (status and body) is kept 24 hours per credential and returned again for a repeat of the same request, with the header `Idempotent-Replayed: true`. The same key with another method, path or body is a 409 `idempotency_key_reused`; a repeat while the first request is still running is a 409 `idempotency_in_progress`. Server failures (5xx) are not kept: a repeat runs again. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description Identifier of the resource. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The schedule and the publications it queued. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "schedule": {
                     *           "id": "sch_0a1b2c3d4e5f6a7b",
                     *           "name": "example",
                     *           "offer_id": "off_0a1b2c3d4e5f6a7b",
                     *           "text": "example",
                     *           "group_id": "grp_0a1b2c3d4e5f6a7b",
                     *           "segment_id": "seg_0a1b2c3d4e5f6a7b",
                     *           "template_id": "tpl_0a1b2c3d4e5f6a7b",
                     *           "with_image": true,
                     *           "run_at": "2026-01-15T12:00:00Z",
                     *           "recurrence": {
                     *             "rrule": "example",
                     *             "cron": "example",
                     *             "timezone": "example",
                     *             "ends_at": "2026-01-15T12:00:00Z"
                     *           },
                     *           "status": "active",
                     *           "next_run_at": "2026-01-15T12:00:00Z",
                     *           "last_run_at": "2026-01-15T12:00:00Z",
                     *           "run_count": 1,
                     *           "created_at": "2026-01-15T12:00:00Z",
                     *           "updated_at": "2026-01-15T12:00:00Z"
                     *         },
                     *         "publications": [
                     *           {
                     *             "id": "pub_0a1b2c3d4e5f6a7b",
                     *             "offer_id": "off_0a1b2c3d4e5f6a7b",
                     *             "group_id": "grp_0a1b2c3d4e5f6a7b",
                     *             "segment_id": "seg_0a1b2c3d4e5f6a7b",
                     *             "schedule_id": "sch_0a1b2c3d4e5f6a7b",
                     *             "template_id": "tpl_0a1b2c3d4e5f6a7b",
                     *             "text": "example",
                     *             "with_image": true,
                     *             "status": "queued",
                     *             "deliveries": [
                     *               {
                     *                 "group_id": "grp_0a1b2c3d4e5f6a7b",
                     *                 "status": "queued",
                     *                 "attempts": 1,
                     *                 "error": "example",
                     *                 "with_image": true,
                     *                 "sent_at": "2026-01-15T12:00:00Z"
                     *               }
                     *             ],
                     *             "event_id": "evt_0a1b2c3d4e5f6a7b",
                     *             "queued_at": "2026-01-15T12:00:00Z",
                     *             "completed_at": "2026-01-15T12:00:00Z",
                     *             "created_at": "2026-01-15T12:00:00Z",
                     *             "updated_at": "2026-01-15T12:00:00Z"
                     *           }
                     *         ]
                     *       },
                     *       "event_id": "evt_0a1b2c3d4e5f6a7b",
                     *       "request_id": "req_0a1b2c3d4e5f6a7b"
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["ScheduleRunResult"];
                        event_id: components["schemas"]["EventId"];
                        request_id: components["schemas"]["RequestId"];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            402: components["responses"]["Error402"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            503: components["responses"]["Error503"];
            "5XX": components["responses"]["Error5XX"];
        };
    };
    monitors_list: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: number;
                /** @description Number of items to skip, 0 or more. */
                offset?: number;
                /** @description Only active or paused monitors. */
                state?: "active" | "paused";
                /** @description Only monitors whose criteria name this marketplace. */
                marketplace?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of monitors. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "mon_0a1b2c3d4e5f6a7b",
                     *           "name": "example",
                     *           "sources": [
                     *             {
                     *               "type": "merchant_xml",
                     *               "url": "https://shop.example/p/cafeteira",
                     *               "name": "example",
                     *               "marketplace": "example",
                     *               "mapping": {
                     *                 "title": "example",
                     *                 "url": "example",
                     *                 "price": "example",
                     *                 "original_price": "example",
                     *                 "image": "example",
                     *                 "store": "example",
                     *                 "category": "example",
                     *                 "commission_pct": "example",
                     *                 "currency": "example"
                     *               }
                     *             }
                     *           ],
                     *           "criteria": {
                     *             "keywords_include": [
                     *               "example"
                     *             ],
                     *             "keywords_exclude": [
                     *               "example"
                     *             ],
                     *             "category": "example",
                     *             "marketplace": "example",
                     *             "stores_allow": [
                     *               "example"
                     *             ],
                     *             "stores_deny": [
                     *               "example"
                     *             ],
                     *             "min_discount_pct": 1,
                     *             "min_price": 1,
                     *             "max_price": 1,
                     *             "min_commission_pct": 1
                     *           },
                     *           "frequency": {
                     *             "every_minutes": 15,
                     *             "cron": "example",
                     *             "rrule": "example",
                     *             "timezone": "example"
                     *           },
                     *           "automation": {
                     *             "mode": "none",
                     *             "segment_id": "seg_0a1b2c3d4e5f6a7b",
                     *             "group_id": "grp_0a1b2c3d4e5f6a7b",
                     *             "with_image": true
                     *           },
                     *           "state": "active",
                     *           "next_run_at": "2026-01-15T12:00:00Z",
                     *           "last_run_at": "2026-01-15T12:00:00Z",
                     *           "last_result": {
                     *             "workflow_id": "example",
                     *             "run_id": "example",
                     *             "started_at": "2026-01-15T12:00:00Z",
                     *             "finished_at": "2026-01-15T12:00:00Z",
                     *             "duration_ms": 1,
                     *             "seen": 1,
                     *             "matched": 1,
                     *             "created": 1,
                     *             "published": 1,
                     *             "errors": 1,
                     *             "sources": [
                     *               {
                     *                 "name": "example",
                     *                 "type": "merchant_xml",
                     *                 "seen": 1,
                     *                 "matched": 1,
                     *                 "created": 1,
                     *                 "published": 1,
                     *                 "error": "example"
                     *               }
                     *             ]
                     *           },
                     *           "created_at": "2026-01-15T12:00:00Z",
                     *           "updated_at": "2026-01-15T12:00:00Z"
                     *         }
                     *       ],
                     *       "pagination": {
                     *         "total": 1,
                     *         "limit": 1,
                     *         "offset": 1,
                     *         "has_more": true
                     *       },
                     *       "request_id": "req_0a1b2c3d4e5f6a7b"
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Monitor"][];
                        pagination: components["schemas"]["Pagination"];
                        request_id: components["schemas"]["RequestId"];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            402: components["responses"]["Error402"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            503: components["responses"]["Error503"];
            "5XX": components["responses"]["Error5XX"];
        };
    };
    monitor_create: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a POST safe to repeat (a retry after a timeout): the first answer to a key (status and body) is kept 24 hours per credential and returned again for a repeat of the same request, with the header `Idempotent-Replayed: true`. The same key with another method, path or body is a 409 `idempotency_key_reused`; a repeat while the first request is still running is a 409 `idempotency_in_progress`. Server failures (5xx) are not kept: a repeat runs again. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "example",
                 *       "sources": [
                 *         {
                 *           "type": "merchant_xml",
                 *           "url": "https://shop.example/p/cafeteira"
                 *         }
                 *       ],
                 *       "frequency": {
                 *         "every_minutes": 15
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["MonitorCreate"];
            };
        };
        responses: {
            /** @description The new monitor. */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "mon_0a1b2c3d4e5f6a7b",
                     *         "name": "example",
                     *         "sources": [
                     *           {
                     *             "type": "merchant_xml",
                     *             "url": "https://shop.example/p/cafeteira",
                     *             "name": "example",
                     *             "marketplace": "example",
                     *             "mapping": {
                     *               "title": "example",
                     *               "url": "example",
                     *               "price": "example",
                     *               "original_price": "example",
                     *               "image": "example",
                     *               "store": "example",
                     *               "category": "example",
                     *               "commission_pct": "example",
                     *               "currency": "example"
                     *             }
                     *           }
                     *         ],
                     *         "criteria": {
                     *           "keywords_include": [
                     *             "example"
                     *           ],
                     *           "keywords_exclude": [
                     *             "example"
                     *           ],
                     *           "category": "example",
                     *           "marketplace": "example",
                     *           "stores_allow": [
                     *             "example"
                     *           ],
                     *           "stores_deny": [
                     *             "example"
                     *           ],
                     *           "min_discount_pct": 1,
                     *           "min_price": 1,
                     *           "max_price": 1,
                     *           "min_commission_pct": 1
                     *         },
                     *         "frequency": {
                     *           "every_minutes": 15,
                     *           "cron": "example",
                     *           "rrule": "example",
                     *           "timezone": "example"
                     *         },
                     *         "automation": {
                     *           "mode": "none",
                     *           "segment_id": "seg_0a1b2c3d4e5f6a7b",
                     *           "group_id": "grp_0a1b2c3d4e5f6a7b",
                     *           "with_image": true
                     *         },
                     *         "state": "active",
                     *         "next_run_at": "2026-01-15T12:00:00Z",
                     *         "last_run_at": "2026-01-15T12:00:00Z",
                     *         "last_result": {
                     *           "workflow_id": "example",
                     *           "run_id": "example",
                     *           "started_at": "2026-01-15T12:00:00Z",
                     *           "finished_at": "2026-01-15T12:00:00Z",
                     *           "duration_ms": 1,
                     *           "seen": 1,
                     *           "matched": 1,
                     *           "created": 1,
                     *           "published": 1,
                     *           "errors": 1,
                     *           "sources": [
                     *             {
                     *               "name": "example",
                     *               "type": "merchant_xml",
                     *               "seen": 1,
                     *               "matched": 1,
                     *               "created": 1,
                     *               "published": 1,
                     *               "error": "example"
                     *             }
                     *           ]
                     *         },
                     *         "created_at": "2026-01-15T12:00:00Z",
                     *         "updated_at": "2026-01-15T12:00:00Z"
                     *       },
                     *       "request_id": "req_0a1b2c3d4e5f6a7b",
                     *       "created": true
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Monitor"];
                        request_id: components["schemas"]["RequestId"];
                        /** @description true when this request created the resource, false when an existing one was returned */
                        created: boolean;
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            402: components["responses"]["Error402"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            503: components["responses"]["Error503"];
            "5XX": components["responses"]["Error5XX"];
        };
    };
    monitor_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the resource. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The monitor. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "mon_0a1b2c3d4e5f6a7b",
                     *         "name": "example",
                     *         "sources": [
                     *           {
                     *             "type": "merchant_xml",
                     *             "url": "https://shop.example/p/cafeteira",
                     *             "name": "example",
                     *             "marketplace": "example",
                     *             "mapping": {
                     *               "title": "example",
                     *               "url": "example",
                     *               "price": "example",
                     *               "original_price": "example",
                     *               "image": "example",
                     *               "store": "example",
                     *               "category": "example",
                     *               "commission_pct": "example",
                     *               "currency": "example"
                     *             }
                     *           }
                     *         ],
                     *         "criteria": {
                     *           "keywords_include": [
                     *             "example"
                     *           ],
                     *           "keywords_exclude": [
                     *             "example"
                     *           ],
                     *           "category": "example",
                     *           "marketplace": "example",
                     *           "stores_allow": [
                     *             "example"
                     *           ],
                     *           "stores_deny": [
                     *             "example"
                     *           ],
                     *           "min_discount_pct": 1,
                     *           "min_price": 1,
                     *           "max_price": 1,
                     *           "min_commission_pct": 1
                     *         },
                     *         "frequency": {
                     *           "every_minutes": 15,
                     *           "cron": "example",
                     *           "rrule": "example",
                     *           "timezone": "example"
                     *         },
                     *         "automation": {
                     *           "mode": "none",
                     *           "segment_id": "seg_0a1b2c3d4e5f6a7b",
                     *           "group_id": "grp_0a1b2c3d4e5f6a7b",
                     *           "with_image": true
                     *         },
                     *         "state": "active",
                     *         "next_run_at": "2026-01-15T12:00:00Z",
                     *         "last_run_at": "2026-01-15T12:00:00Z",
                     *         "last_result": {
                     *           "workflow_id": "example",
                     *           "run_id": "example",
                     *           "started_at": "2026-01-15T12:00:00Z",
                     *           "finished_at": "2026-01-15T12:00:00Z",
                     *           "duration_ms": 1,
                     *           "seen": 1,
                     *           "matched": 1,
                     *           "created": 1,
                     *           "published": 1,
                     *           "errors": 1,
                     *           "sources": [
                     *             {
                     *               "name": "example",
                     *               "type": "merchant_xml",
                     *               "seen": 1,
                     *               "matched": 1,
                     *               "created": 1,
                     *               "published": 1,
                     *               "error": "example"
                     *             }
                     *           ]
                     *         },
                     *         "created_at": "2026-01-15T12:00:00Z",
                     *         "updated_at": "2026-01-15T12:00:00Z"
                     *       },
                     *       "request_id": "req_0a1b2c3d4e5f6a7b"
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Monitor"];
                        request_id: components["schemas"]["RequestId"];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            402: components["responses"]["Error402"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            503: components["responses"]["Error503"];
            "5XX": components["responses"]["Error5XX"];
        };
    };
    monitor_delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the resource. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The deletion envelope. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "deleted": true,
                     *       "id": "example",
                     *       "request_id": "req_0a1b2c3d4e5f6a7b"
                     *     }
                     */
                    "application/json": components["schemas"]["MonitorDeletion"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            402: components["responses"]["Error402"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            503: components["responses"]["Error503"];
            "5XX": components["responses"]["Error5XX"];
        };
    };
    monitor_update: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the resource. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                /** @example {} */
                "application/json": components["schemas"]["MonitorUpdate"];
            };
        };
        responses: {
            /** @description The monitor after the change. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "mon_0a1b2c3d4e5f6a7b",
                     *         "name": "example",
                     *         "sources": [
                     *           {
                     *             "type": "merchant_xml",
                     *             "url": "https://shop.example/p/cafeteira",
                     *             "name": "example",
                     *             "marketplace": "example",
                     *             "mapping": {
                     *               "title": "example",
                     *               "url": "example",
                     *               "price": "example",
                     *               "original_price": "example",
                     *               "image": "example",
                     *               "store": "example",
                     *               "category": "example",
                     *               "commission_pct": "example",
                     *               "currency": "example"
                     *             }
                     *           }
                     *         ],
                     *         "criteria": {
                     *           "keywords_include": [
                     *             "example"
                     *           ],
                     *           "keywords_exclude": [
                     *             "example"
                     *           ],
                     *           "category": "example",
                     *           "marketplace": "example",
                     *           "stores_allow": [
                     *             "example"
                     *           ],
                     *           "stores_deny": [
                     *             "example"
                     *           ],
                     *           "min_discount_pct": 1,
                     *           "min_price": 1,
                     *           "max_price": 1,
                     *           "min_commission_pct": 1
                     *         },
                     *         "frequency": {
                     *           "every_minutes": 15,
                     *           "cron": "example",
                     *           "rrule": "example",
                     *           "timezone": "example"
                     *         },
                     *         "automation": {
                     *           "mode": "none",
                     *           "segment_id": "seg_0a1b2c3d4e5f6a7b",
                     *           "group_id": "grp_0a1b2c3d4e5f6a7b",
                     *           "with_image": true
                     *         },
                     *         "state": "active",
                     *         "next_run_at": "2026-01-15T12:00:00Z",
                     *         "last_run_at": "2026-01-15T12:00:00Z",
                     *         "last_result": {
                     *           "workflow_id": "example",
                     *           "run_id": "example",
                     *           "started_at": "2026-01-15T12:00:00Z",
                     *           "finished_at": "2026-01-15T12:00:00Z",
                     *           "duration_ms": 1,
                     *           "seen": 1,
                     *           "matched": 1,
                     *           "created": 1,
                     *           "published": 1,
                     *           "errors": 1,
                     *           "sources": [
                     *             {
                     *               "name": "example",
                     *               "type": "merchant_xml",
                     *               "seen": 1,
                     *               "matched": 1,
                     *               "created": 1,
                     *               "published": 1,
                     *               "error": "example"
                     *             }
                     *           ]
                     *         },
                     *         "created_at": "2026-01-15T12:00:00Z",
                     *         "updated_at": "2026-01-15T12:00:00Z"
                     *       },
                     *       "request_id": "req_0a1b2c3d4e5f6a7b"
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Monitor"];
                        request_id: components["schemas"]["RequestId"];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            402: components["responses"]["Error402"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            503: components["responses"]["Error503"];
            "5XX": components["responses"]["Error5XX"];
        };
    };
    store_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The store. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "sto_0a1b2c3d4e5f6a7b",
                     *         "subdomain": "example",
                     *         "name": "example",
                     *         "tagline": "example",
                     *         "description": "example",
                     *         "theme": "classic",
                     *         "colors": {
                     *           "primary": "#1a2b3c",
                     *           "secondary": "#1a2b3c",
                     *           "background": "#1a2b3c",
                     *           "text": "#1a2b3c"
                     *         },
                     *         "logo": "example",
                     *         "networks": {
                     *           "instagram": "example",
                     *           "facebook": "example",
                     *           "tiktok": "example",
                     *           "youtube": "example",
                     *           "x": "example",
                     *           "telegram": "example",
                     *           "whatsapp": "example",
                     *           "site": "example"
                     *         },
                     *         "hours": [
                     *           {
                     *             "day": "mon",
                     *             "opens": "09:30",
                     *             "closes": "09:30"
                     *           }
                     *         ],
                     *         "timezone": "example",
                     *         "contact": {
                     *           "kind": "whatsapp_group",
                     *           "url": "https://shop.example/p/cafeteira",
                     *           "label": "example"
                     *         },
                     *         "seo_title": "example",
                     *         "seo_description": "example",
                     *         "domain": "example",
                     *         "domain_verified": 0,
                     *         "dns_target": "example",
                     *         "active": 0,
                     *         "url": "https://shop.example/p/cafeteira",
                     *         "created_at": "2026-01-15T12:00:00Z",
                     *         "updated_at": "2026-01-15T12:00:00Z"
                     *       },
                     *       "request_id": "req_0a1b2c3d4e5f6a7b"
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Store"];
                        request_id: components["schemas"]["RequestId"];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            402: components["responses"]["Error402"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            503: components["responses"]["Error503"];
            "5XX": components["responses"]["Error5XX"];
        };
    };
    store_update: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                /** @example {} */
                "application/json": components["schemas"]["StoreUpdate"];
            };
        };
        responses: {
            /** @description The store after the change. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "sto_0a1b2c3d4e5f6a7b",
                     *         "subdomain": "example",
                     *         "name": "example",
                     *         "tagline": "example",
                     *         "description": "example",
                     *         "theme": "classic",
                     *         "colors": {
                     *           "primary": "#1a2b3c",
                     *           "secondary": "#1a2b3c",
                     *           "background": "#1a2b3c",
                     *           "text": "#1a2b3c"
                     *         },
                     *         "logo": "example",
                     *         "networks": {
                     *           "instagram": "example",
                     *           "facebook": "example",
                     *           "tiktok": "example",
                     *           "youtube": "example",
                     *           "x": "example",
                     *           "telegram": "example",
                     *           "whatsapp": "example",
                     *           "site": "example"
                     *         },
                     *         "hours": [
                     *           {
                     *             "day": "mon",
                     *             "opens": "09:30",
                     *             "closes": "09:30"
                     *           }
                     *         ],
                     *         "timezone": "example",
                     *         "contact": {
                     *           "kind": "whatsapp_group",
                     *           "url": "https://shop.example/p/cafeteira",
                     *           "label": "example"
                     *         },
                     *         "seo_title": "example",
                     *         "seo_description": "example",
                     *         "domain": "example",
                     *         "domain_verified": 0,
                     *         "dns_target": "example",
                     *         "active": 0,
                     *         "url": "https://shop.example/p/cafeteira",
                     *         "created_at": "2026-01-15T12:00:00Z",
                     *         "updated_at": "2026-01-15T12:00:00Z"
                     *       },
                     *       "request_id": "req_0a1b2c3d4e5f6a7b"
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Store"];
                        request_id: components["schemas"]["RequestId"];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            402: components["responses"]["Error402"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            503: components["responses"]["Error503"];
            "5XX": components["responses"]["Error5XX"];
        };
    };
    store_collections_list: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: number;
                /** @description Number of items to skip, 0 or more. */
                offset?: number;
                /** @description Only published (true) or hidden (false) collections. */
                published?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of collections. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "col_0a1b2c3d4e5f6a7b",
                     *           "title": "example",
                     *           "slug": "example",
                     *           "description": "example",
                     *           "position": 1,
                     *           "published": true,
                     *           "offer_count": 1,
                     *           "offer_ids": [
                     *             "off_0a1b2c3d4e5f6a7b"
                     *           ],
                     *           "created_at": "2026-01-15T12:00:00Z",
                     *           "updated_at": "2026-01-15T12:00:00Z"
                     *         }
                     *       ],
                     *       "pagination": {
                     *         "total": 1,
                     *         "limit": 1,
                     *         "offset": 1,
                     *         "has_more": true
                     *       },
                     *       "request_id": "req_0a1b2c3d4e5f6a7b"
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["StoreCollection"][];
                        pagination: components["schemas"]["Pagination"];
                        request_id: components["schemas"]["RequestId"];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            402: components["responses"]["Error402"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            503: components["responses"]["Error503"];
            "5XX": components["responses"]["Error5XX"];
        };
    };
    store_page_create: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a POST safe to repeat (a retry after a timeout): the first answer to a key (status and body) is kept 24 hours per credential and returned again for a repeat of the same request, with the header `Idempotent-Replayed: true`. The same key with another method, path or body is a 409 `idempotency_key_reused`; a repeat while the first request is still running is a 409 `idempotency_in_progress`. Server failures (5xx) are not kept: a repeat runs again. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "title": "example"
                 *     }
                 */
                "application/json": components["schemas"]["StorePageCreate"];
            };
        };
        responses: {
            /** @description The new page. */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "pag_0a1b2c3d4e5f6a7b",
                     *         "title": "example",
                     *         "slug": "example",
                     *         "summary": "example",
                     *         "body": "example",
                     *         "cover": "example",
                     *         "seo_title": "example",
                     *         "seo_description": "example",
                     *         "published": true,
                     *         "path": "/example",
                     *         "url": "https://shop.example/p/cafeteira",
                     *         "published_at": "2026-01-15T12:00:00Z",
                     *         "created_at": "2026-01-15T12:00:00Z",
                     *         "updated_at": "2026-01-15T12:00:00Z"
                     *       },
                     *       "request_id": "req_0a1b2c3d4e5f6a7b",
                     *       "created": true
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["StorePage"];
                        request_id: components["schemas"]["RequestId"];
                        /** @description true when this request created the resource, false when an existing one was returned */
                        created: boolean;
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            402: components["responses"]["Error402"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            503: components["responses"]["Error503"];
            "5XX": components["responses"]["Error5XX"];
        };
    };
    journeys_list: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: number;
                /** @description Number of items to skip, 0 or more. */
                offset?: number;
                /** @description Only active (true) or inactive (false) journeys. */
                active?: boolean;
                /** @description Only journeys started by this event kind. */
                trigger?: "application.created" | "application.revoked" | "channel.state_changed" | "commission.approved" | "commission.created" | "commission.status_changed" | "contact.created" | "contract_test.completed" | "conversation.closed" | "conversation.created" | "conversation.updated" | "coupon.created" | "coupon.deactivated" | "coupon.updated" | "group.updated" | "journey.created" | "journey.deleted" | "journey.updated" | "link.created" | "message.failed" | "message.received" | "message.sent" | "monitor.created" | "monitor.deleted" | "monitor.ran" | "monitor.updated" | "offer.archived" | "offer.created" | "offer.previewed" | "offer.updated" | "publication.completed" | "publication.queued" | "sandbox.reset" | "schedule.created" | "schedule.deleted" | "schedule.ran" | "schedule.updated" | "segment.created" | "segment.deleted" | "segment.updated" | "store.page_created" | "store.updated" | "template.created" | "template.deleted" | "template.updated" | "webhook.created" | "webhook.deleted" | "webhook.updated";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of journeys. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "jrn_0a1b2c3d4e5f6a7b",
                     *           "name": "example",
                     *           "description": "example",
                     *           "trigger": "example",
                     *           "filter": [
                     *             {
                     *               "field": "event.offer.title",
                     *               "operator": "eq",
                     *               "value": "example"
                     *             }
                     *           ],
                     *           "channels": [
                     *             "whatsapp"
                     *           ],
                     *           "blocks": [
                     *             {
                     *               "id": "0a1b2c3d4e5f6a7b",
                     *               "type": "trigger",
                     *               "name": "example",
                     *               "config": {},
                     *               "next": [
                     *                 "0a1b2c3d4e5f6a7b"
                     *               ],
                     *               "position": {
                     *                 "x": 1,
                     *                 "y": 1
                     *               },
                     *               "metrics": {
                     *                 "entered": 1,
                     *                 "completed": 1,
                     *                 "failed": 1
                     *               }
                     *             }
                     *           ],
                     *           "version": 1,
                     *           "active": 0,
                     *           "executions": 1,
                     *           "metrics": {
                     *             "running": 1,
                     *             "completed": 1,
                     *             "failed": 1,
                     *             "completion_rate": 1,
                     *             "last_execution_at": "2026-01-15T12:00:00Z"
                     *           },
                     *           "activated_at": "2026-01-15T12:00:00Z",
                     *           "created_at": "2026-01-15T12:00:00Z",
                     *           "updated_at": "2026-01-15T12:00:00Z"
                     *         }
                     *       ],
                     *       "pagination": {
                     *         "total": 1,
                     *         "limit": 1,
                     *         "offset": 1,
                     *         "has_more": true
                     *       },
                     *       "request_id": "req_0a1b2c3d4e5f6a7b"
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Journey"][];
                        pagination: components["schemas"]["Pagination"];
                        request_id: components["schemas"]["RequestId"];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            402: components["responses"]["Error402"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            503: components["responses"]["Error503"];
            "5XX": components["responses"]["Error5XX"];
        };
    };
    journey_create: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a POST safe to repeat (a retry after a timeout): the first answer to a key (status and body) is kept 24 hours per credential and returned again for a repeat of the same request, with the header `Idempotent-Replayed: true`. The same key with another method, path or body is a 409 `idempotency_key_reused`; a repeat while the first request is still running is a 409 `idempotency_in_progress`. Server failures (5xx) are not kept: a repeat runs again. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "example",
                 *       "trigger": "application.created",
                 *       "blocks": [
                 *         {
                 *           "id": "0a1b2c3d4e5f6a7b",
                 *           "type": "trigger",
                 *           "config": {}
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["JourneyCreate"];
            };
        };
        responses: {
            /** @description The new journey, `active` 0. */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "jrn_0a1b2c3d4e5f6a7b",
                     *         "name": "example",
                     *         "description": "example",
                     *         "trigger": "example",
                     *         "filter": [
                     *           {
                     *             "field": "event.offer.title",
                     *             "operator": "eq",
                     *             "value": "example"
                     *           }
                     *         ],
                     *         "channels": [
                     *           "whatsapp"
                     *         ],
                     *         "blocks": [
                     *           {
                     *             "id": "0a1b2c3d4e5f6a7b",
                     *             "type": "trigger",
                     *             "name": "example",
                     *             "config": {},
                     *             "next": [
                     *               "0a1b2c3d4e5f6a7b"
                     *             ],
                     *             "position": {
                     *               "x": 1,
                     *               "y": 1
                     *             },
                     *             "metrics": {
                     *               "entered": 1,
                     *               "completed": 1,
                     *               "failed": 1
                     *             }
                     *           }
                     *         ],
                     *         "version": 1,
                     *         "active": 0,
                     *         "executions": 1,
                     *         "metrics": {
                     *           "running": 1,
                     *           "completed": 1,
                     *           "failed": 1,
                     *           "completion_rate": 1,
                     *           "last_execution_at": "2026-01-15T12:00:00Z"
                     *         },
                     *         "activated_at": "2026-01-15T12:00:00Z",
                     *         "created_at": "2026-01-15T12:00:00Z",
                     *         "updated_at": "2026-01-15T12:00:00Z"
                     *       },
                     *       "request_id": "req_0a1b2c3d4e5f6a7b",
                     *       "created": true
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Journey"];
                        request_id: components["schemas"]["RequestId"];
                        /** @description true when this request created the resource, false when an existing one was returned */
                        created: boolean;
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            402: components["responses"]["Error402"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            503: components["responses"]["Error503"];
            "5XX": components["responses"]["Error5XX"];
        };
    };
    journey_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the resource. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The journey. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "jrn_0a1b2c3d4e5f6a7b",
                     *         "name": "example",
                     *         "description": "example",
                     *         "trigger": "example",
                     *         "filter": [
                     *           {
                     *             "field": "event.offer.title",
                     *             "operator": "eq",
                     *             "value": "example"
                     *           }
                     *         ],
                     *         "channels": [
                     *           "whatsapp"
                     *         ],
                     *         "blocks": [
                     *           {
                     *             "id": "0a1b2c3d4e5f6a7b",
                     *             "type": "trigger",
                     *             "name": "example",
                     *             "config": {},
                     *             "next": [
                     *               "0a1b2c3d4e5f6a7b"
                     *             ],
                     *             "position": {
                     *               "x": 1,
                     *               "y": 1
                     *             },
                     *             "metrics": {
                     *               "entered": 1,
                     *               "completed": 1,
                     *               "failed": 1
                     *             }
                     *           }
                     *         ],
                     *         "version": 1,
                     *         "active": 0,
                     *         "executions": 1,
                     *         "metrics": {
                     *           "running": 1,
                     *           "completed": 1,
                     *           "failed": 1,
                     *           "completion_rate": 1,
                     *           "last_execution_at": "2026-01-15T12:00:00Z"
                     *         },
                     *         "activated_at": "2026-01-15T12:00:00Z",
                     *         "created_at": "2026-01-15T12:00:00Z",
                     *         "updated_at": "2026-01-15T12:00:00Z"
                     *       },
                     *       "request_id": "req_0a1b2c3d4e5f6a7b"
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Journey"];
                        request_id: components["schemas"]["RequestId"];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            402: components["responses"]["Error402"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            503: components["responses"]["Error503"];
            "5XX": components["responses"]["Error5XX"];
        };
    };
    journey_delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the resource. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The deletion envelope. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "deleted": true,
                     *       "id": "example",
                     *       "request_id": "req_0a1b2c3d4e5f6a7b"
                     *     }
                     */
                    "application/json": components["schemas"]["JourneyDeletion"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            402: components["responses"]["Error402"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            503: components["responses"]["Error503"];
            "5XX": components["responses"]["Error5XX"];
        };
    };
    journey_update: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the resource. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                /** @example {} */
                "application/json": components["schemas"]["JourneyUpdate"];
            };
        };
        responses: {
            /** @description The journey after the change. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "jrn_0a1b2c3d4e5f6a7b",
                     *         "name": "example",
                     *         "description": "example",
                     *         "trigger": "example",
                     *         "filter": [
                     *           {
                     *             "field": "event.offer.title",
                     *             "operator": "eq",
                     *             "value": "example"
                     *           }
                     *         ],
                     *         "channels": [
                     *           "whatsapp"
                     *         ],
                     *         "blocks": [
                     *           {
                     *             "id": "0a1b2c3d4e5f6a7b",
                     *             "type": "trigger",
                     *             "name": "example",
                     *             "config": {},
                     *             "next": [
                     *               "0a1b2c3d4e5f6a7b"
                     *             ],
                     *             "position": {
                     *               "x": 1,
                     *               "y": 1
                     *             },
                     *             "metrics": {
                     *               "entered": 1,
                     *               "completed": 1,
                     *               "failed": 1
                     *             }
                     *           }
                     *         ],
                     *         "version": 1,
                     *         "active": 0,
                     *         "executions": 1,
                     *         "metrics": {
                     *           "running": 1,
                     *           "completed": 1,
                     *           "failed": 1,
                     *           "completion_rate": 1,
                     *           "last_execution_at": "2026-01-15T12:00:00Z"
                     *         },
                     *         "activated_at": "2026-01-15T12:00:00Z",
                     *         "created_at": "2026-01-15T12:00:00Z",
                     *         "updated_at": "2026-01-15T12:00:00Z"
                     *       },
                     *       "request_id": "req_0a1b2c3d4e5f6a7b"
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Journey"];
                        request_id: components["schemas"]["RequestId"];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            402: components["responses"]["Error402"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            503: components["responses"]["Error503"];
            "5XX": components["responses"]["Error5XX"];
        };
    };
    journey_activate: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a POST safe to repeat (a retry after a timeout): the first answer to a key (status and body) is kept 24 hours per credential and returned again for a repeat of the same request, with the header `Idempotent-Replayed: true`. The same key with another method, path or body is a 409 `idempotency_key_reused`; a repeat while the first request is still running is a 409 `idempotency_in_progress`. Server failures (5xx) are not kept: a repeat runs again. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description Identifier of the resource. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                /** @example {} */
                "application/json": components["schemas"]["JourneyActivateRequest"];
            };
        };
        responses: {
            /** @description The journey in its new state. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "jrn_0a1b2c3d4e5f6a7b",
                     *         "name": "example",
                     *         "description": "example",
                     *         "trigger": "example",
                     *         "filter": [
                     *           {
                     *             "field": "event.offer.title",
                     *             "operator": "eq",
                     *             "value": "example"
                     *           }
                     *         ],
                     *         "channels": [
                     *           "whatsapp"
                     *         ],
                     *         "blocks": [
                     *           {
                     *             "id": "0a1b2c3d4e5f6a7b",
                     *             "type": "trigger",
                     *             "name": "example",
                     *             "config": {},
                     *             "next": [
                     *               "0a1b2c3d4e5f6a7b"
                     *             ],
                     *             "position": {
                     *               "x": 1,
                     *               "y": 1
                     *             },
                     *             "metrics": {
                     *               "entered": 1,
                     *               "completed": 1,
                     *               "failed": 1
                     *             }
                     *           }
                     *         ],
                     *         "version": 1,
                     *         "active": 0,
                     *         "executions": 1,
                     *         "metrics": {
                     *           "running": 1,
                     *           "completed": 1,
                     *           "failed": 1,
                     *           "completion_rate": 1,
                     *           "last_execution_at": "2026-01-15T12:00:00Z"
                     *         },
                     *         "activated_at": "2026-01-15T12:00:00Z",
                     *         "created_at": "2026-01-15T12:00:00Z",
                     *         "updated_at": "2026-01-15T12:00:00Z"
                     *       },
                     *       "request_id": "req_0a1b2c3d4e5f6a7b"
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Journey"];
                        request_id: components["schemas"]["RequestId"];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            402: components["responses"]["Error402"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            503: components["responses"]["Error503"];
            "5XX": components["responses"]["Error5XX"];
        };
    };
    journey_executions_list: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: number;
                /** @description Number of items to skip, 0 or more. */
                offset?: number;
                /** @description Only executions in this status. */
                status?: components["schemas"]["JourneyExecutionStatus"];
            };
            header?: never;
            path: {
                /** @description Identifier of the resource. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of executions. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "example",
                     *           "journey_id": "jrn_0a1b2c3d4e5f6a7b",
                     *           "conversation_id": "cnv_0a1b2c3d4e5f6a7b",
                     *           "status": "running",
                     *           "current_step": "example",
                     *           "event_id": "example",
                     *           "event_kind": "example",
                     *           "version": 1,
                     *           "error": "example",
                     *           "started_at": "2026-01-15T12:00:00Z",
                     *           "closed_at": "2026-01-15T12:00:00Z"
                     *         }
                     *       ],
                     *       "pagination": {
                     *         "total": 1,
                     *         "limit": 1,
                     *         "offset": 1,
                     *         "has_more": true
                     *       },
                     *       "request_id": "req_0a1b2c3d4e5f6a7b"
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["JourneyExecution"][];
                        pagination: components["schemas"]["Pagination"];
                        request_id: components["schemas"]["RequestId"];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            402: components["responses"]["Error402"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            503: components["responses"]["Error503"];
            "5XX": components["responses"]["Error5XX"];
        };
    };
    conversations_list: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: number;
                /** @description Number of items to skip, 0 or more. */
                offset?: number;
                /** @description Only conversations in this state. */
                status?: components["schemas"]["ConversationStatus"];
                /** @description Only conversations of this channel type. */
                channel?: components["schemas"]["ChannelType"];
                /** @description Only conversations assigned to this team member. */
                assignee?: string;
                /** @description Only conversations of this priority. */
                priority?: components["schemas"]["Priority"];
                /** @description Only conversations of this contact. */
                contact_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of conversations. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "cnv_0a1b2c3d4e5f6a7b",
                     *           "channel": "whatsapp",
                     *           "channel_id": "chn_0a1b2c3d4e5f6a7b",
                     *           "status": "open",
                     *           "assignee": "example",
                     *           "priority": "low",
                     *           "du_mode": "auto",
                     *           "contact_id": "ctc_0a1b2c3d4e5f6a7b",
                     *           "tags": [
                     *             "example"
                     *           ],
                     *           "unread_count": 1,
                     *           "last_message_at": "2026-01-15T12:00:00Z",
                     *           "last_message_preview": "example",
                     *           "created_at": "2026-01-15T12:00:00Z",
                     *           "updated_at": "2026-01-15T12:00:00Z",
                     *           "closed_at": "2026-01-15T12:00:00Z"
                     *         }
                     *       ],
                     *       "pagination": {
                     *         "total": 1,
                     *         "limit": 1,
                     *         "offset": 1,
                     *         "has_more": true
                     *       },
                     *       "request_id": "req_0a1b2c3d4e5f6a7b"
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Conversation"][];
                        pagination: components["schemas"]["Pagination"];
                        request_id: components["schemas"]["RequestId"];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            402: components["responses"]["Error402"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            503: components["responses"]["Error503"];
            "5XX": components["responses"]["Error5XX"];
        };
    };
    conversation_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the resource. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The conversation, its contact profile and its latest messages. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "cnv_0a1b2c3d4e5f6a7b",
                     *         "channel": "whatsapp",
                     *         "channel_id": "chn_0a1b2c3d4e5f6a7b",
                     *         "status": "open",
                     *         "assignee": "example",
                     *         "priority": "low",
                     *         "du_mode": "auto",
                     *         "contact_id": "ctc_0a1b2c3d4e5f6a7b",
                     *         "tags": [
                     *           "example"
                     *         ],
                     *         "unread_count": 1,
                     *         "last_message_at": "2026-01-15T12:00:00Z",
                     *         "last_message_preview": "example",
                     *         "created_at": "2026-01-15T12:00:00Z",
                     *         "updated_at": "2026-01-15T12:00:00Z",
                     *         "closed_at": "2026-01-15T12:00:00Z",
                     *         "contact": {
                     *           "id": "ctc_0a1b2c3d4e5f6a7b",
                     *           "display_name": "example",
                     *           "channels": [
                     *             "whatsapp"
                     *           ],
                     *           "stage": "new",
                     *           "interests": [
                     *             "example"
                     *           ],
                     *           "tags": [
                     *             "example"
                     *           ],
                     *           "conversation_count": 1,
                     *           "first_seen_at": "2026-01-15T12:00:00Z",
                     *           "last_seen_at": "2026-01-15T12:00:00Z"
                     *         },
                     *         "last_messages": [
                     *           {
                     *             "id": "msg_0a1b2c3d4e5f6a7b",
                     *             "conversation_id": "cnv_0a1b2c3d4e5f6a7b",
                     *             "direction": "inbound",
                     *             "author": "contact",
                     *             "agent": "example",
                     *             "text": "example",
                     *             "media_type": "image",
                     *             "media_urls": [
                     *               "https://shop.example/p/cafeteira"
                     *             ],
                     *             "template_id": "tpl_0a1b2c3d4e5f6a7b",
                     *             "status": "received",
                     *             "error": "example",
                     *             "sent_at": "2026-01-15T12:00:00Z",
                     *             "created_at": "2026-01-15T12:00:00Z"
                     *           }
                     *         ]
                     *       },
                     *       "request_id": "req_0a1b2c3d4e5f6a7b"
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["ConversationContext"];
                        request_id: components["schemas"]["RequestId"];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            402: components["responses"]["Error402"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            503: components["responses"]["Error503"];
            "5XX": components["responses"]["Error5XX"];
        };
    };
    conversation_update: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the resource. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                /** @example {} */
                "application/json": components["schemas"]["ConversationUpdate"];
            };
        };
        responses: {
            /** @description The conversation after the change. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "cnv_0a1b2c3d4e5f6a7b",
                     *         "channel": "whatsapp",
                     *         "channel_id": "chn_0a1b2c3d4e5f6a7b",
                     *         "status": "open",
                     *         "assignee": "example",
                     *         "priority": "low",
                     *         "du_mode": "auto",
                     *         "contact_id": "ctc_0a1b2c3d4e5f6a7b",
                     *         "tags": [
                     *           "example"
                     *         ],
                     *         "unread_count": 1,
                     *         "last_message_at": "2026-01-15T12:00:00Z",
                     *         "last_message_preview": "example",
                     *         "created_at": "2026-01-15T12:00:00Z",
                     *         "updated_at": "2026-01-15T12:00:00Z",
                     *         "closed_at": "2026-01-15T12:00:00Z"
                     *       },
                     *       "request_id": "req_0a1b2c3d4e5f6a7b"
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Conversation"];
                        request_id: components["schemas"]["RequestId"];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            402: components["responses"]["Error402"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            503: components["responses"]["Error503"];
            "5XX": components["responses"]["Error5XX"];
        };
    };
    conversation_close: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a POST safe to repeat (a retry after a timeout): the first answer to a key (status and body) is kept 24 hours per credential and returned again for a repeat of the same request, with the header `Idempotent-Replayed: true`. The same key with another method, path or body is a 409 `idempotency_key_reused`; a repeat while the first request is still running is a 409 `idempotency_in_progress`. Server failures (5xx) are not kept: a repeat runs again. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description Identifier of the resource. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                /** @example {} */
                "application/json": components["schemas"]["ConversationCloseRequest"];
            };
        };
        responses: {
            /** @description The closed conversation and the event recorded. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "cnv_0a1b2c3d4e5f6a7b",
                     *         "channel": "whatsapp",
                     *         "channel_id": "chn_0a1b2c3d4e5f6a7b",
                     *         "status": "open",
                     *         "assignee": "example",
                     *         "priority": "low",
                     *         "du_mode": "auto",
                     *         "contact_id": "ctc_0a1b2c3d4e5f6a7b",
                     *         "tags": [
                     *           "example"
                     *         ],
                     *         "unread_count": 1,
                     *         "last_message_at": "2026-01-15T12:00:00Z",
                     *         "last_message_preview": "example",
                     *         "created_at": "2026-01-15T12:00:00Z",
                     *         "updated_at": "2026-01-15T12:00:00Z",
                     *         "closed_at": "2026-01-15T12:00:00Z"
                     *       },
                     *       "event_id": "evt_0a1b2c3d4e5f6a7b",
                     *       "request_id": "req_0a1b2c3d4e5f6a7b"
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Conversation"];
                        event_id: components["schemas"]["EventId"];
                        request_id: components["schemas"]["RequestId"];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            402: components["responses"]["Error402"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            503: components["responses"]["Error503"];
            "5XX": components["responses"]["Error5XX"];
        };
    };
    conversation_messages_list: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: number;
                /** @description Number of items to skip, 0 or more. */
                offset?: number;
                /** @description Only messages older than this message (keyset paging: the last id of the previous page). */
                before?: string;
            };
            header?: never;
            path: {
                /** @description Identifier of the resource. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of messages. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "msg_0a1b2c3d4e5f6a7b",
                     *           "conversation_id": "cnv_0a1b2c3d4e5f6a7b",
                     *           "direction": "inbound",
                     *           "author": "contact",
                     *           "agent": "example",
                     *           "text": "example",
                     *           "media_type": "image",
                     *           "media_urls": [
                     *             "https://shop.example/p/cafeteira"
                     *           ],
                     *           "template_id": "tpl_0a1b2c3d4e5f6a7b",
                     *           "status": "received",
                     *           "error": "example",
                     *           "sent_at": "2026-01-15T12:00:00Z",
                     *           "created_at": "2026-01-15T12:00:00Z"
                     *         }
                     *       ],
                     *       "pagination": {
                     *         "total": 1,
                     *         "limit": 1,
                     *         "offset": 1,
                     *         "has_more": true
                     *       },
                     *       "request_id": "req_0a1b2c3d4e5f6a7b"
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Message"][];
                        pagination: components["schemas"]["Pagination"];
                        request_id: components["schemas"]["RequestId"];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            402: components["responses"]["Error402"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            503: components["responses"]["Error503"];
            "5XX": components["responses"]["Error5XX"];
        };
    };
    conversation_reply: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a POST safe to repeat (a retry after a timeout): the first answer to a key (status and body) is kept 24 hours per credential and returned again for a repeat of the same request, with the header `Idempotent-Replayed: true`. The same key with another method, path or body is a 409 `idempotency_key_reused`; a repeat while the first request is still running is a 409 `idempotency_in_progress`. Server failures (5xx) are not kept: a repeat runs again. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description Identifier of the resource. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "text": "example"
                 *     }
                 */
                "application/json": components["schemas"]["ConversationReply"];
            };
        };
        responses: {
            /** @description The registered message (`queued`). */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "msg_0a1b2c3d4e5f6a7b",
                     *         "conversation_id": "cnv_0a1b2c3d4e5f6a7b",
                     *         "direction": "inbound",
                     *         "author": "contact",
                     *         "agent": "example",
                     *         "text": "example",
                     *         "media_type": "image",
                     *         "media_urls": [
                     *           "https://shop.example/p/cafeteira"
                     *         ],
                     *         "template_id": "tpl_0a1b2c3d4e5f6a7b",
                     *         "status": "received",
                     *         "error": "example",
                     *         "sent_at": "2026-01-15T12:00:00Z",
                     *         "created_at": "2026-01-15T12:00:00Z"
                     *       },
                     *       "request_id": "req_0a1b2c3d4e5f6a7b"
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Message"];
                        request_id: components["schemas"]["RequestId"];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            402: components["responses"]["Error402"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            503: components["responses"]["Error503"];
            "5XX": components["responses"]["Error5XX"];
        };
    };
    contacts_list: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: number;
                /** @description Number of items to skip, 0 or more. */
                offset?: number;
                /** @description Only contacts at this stage. */
                stage?: "new" | "engaged" | "customer" | "inactive";
                /** @description Only contacts with this tag. */
                tag?: string;
                /** @description Only contacts seen on this channel type. */
                channel?: components["schemas"]["ChannelType"];
                /** @description Case-insensitive search in the display name. */
                query?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of contacts. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "ctc_0a1b2c3d4e5f6a7b",
                     *           "display_name": "example",
                     *           "channels": [
                     *             "whatsapp"
                     *           ],
                     *           "stage": "new",
                     *           "interests": [
                     *             "example"
                     *           ],
                     *           "tags": [
                     *             "example"
                     *           ],
                     *           "conversation_count": 1,
                     *           "first_seen_at": "2026-01-15T12:00:00Z",
                     *           "last_seen_at": "2026-01-15T12:00:00Z"
                     *         }
                     *       ],
                     *       "pagination": {
                     *         "total": 1,
                     *         "limit": 1,
                     *         "offset": 1,
                     *         "has_more": true
                     *       },
                     *       "request_id": "req_0a1b2c3d4e5f6a7b"
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Contact"][];
                        pagination: components["schemas"]["Pagination"];
                        request_id: components["schemas"]["RequestId"];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            402: components["responses"]["Error402"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            503: components["responses"]["Error503"];
            "5XX": components["responses"]["Error5XX"];
        };
    };
    analytics_summary: {
        parameters: {
            query?: {
                /** @description Window in days ending now, 1 to 365. */
                days?: number;
                /** @description Count the clicks of bots and link prefetchers too (recorded apart; excluded by default). */
                include_bots?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The summary. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "days": 1,
                     *         "time_zone": "example",
                     *         "first_day": "2026-01-15",
                     *         "last_day": "2026-01-15",
                     *         "publications": 1,
                     *         "publications_sent": 1,
                     *         "publications_failed": 1,
                     *         "deliveries": 1,
                     *         "deliveries_sent": 1,
                     *         "deliveries_failed": 1,
                     *         "delivery_rate": 1,
                     *         "clicks": 1,
                     *         "bot_clicks": 1,
                     *         "commissions": [
                     *           {
                     *             "currency": "example",
                     *             "count": 1,
                     *             "amount_minor": 1,
                     *             "amount": "123.50"
                     *           }
                     *         ]
                     *       },
                     *       "request_id": "req_0a1b2c3d4e5f6a7b"
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["AnalyticsSummary"];
                        request_id: components["schemas"]["RequestId"];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            402: components["responses"]["Error402"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            503: components["responses"]["Error503"];
            "5XX": components["responses"]["Error5XX"];
        };
    };
    analytics_timeseries: {
        parameters: {
            query?: {
                /** @description Window in days ending now, 1 to 365. */
                days?: number;
                /** @description Count the clicks of bots and link prefetchers too (recorded apart; excluded by default). */
                include_bots?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One point per day. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "days": 1,
                     *         "time_zone": "example",
                     *         "first_day": "2026-01-15",
                     *         "last_day": "2026-01-15",
                     *         "points": [
                     *           {
                     *             "date": "2026-01-15",
                     *             "publications": 1,
                     *             "posts": 1,
                     *             "failures": 1,
                     *             "deliveries_sent": 1,
                     *             "deliveries_failed": 1,
                     *             "clicks": 1,
                     *             "commissions": [
                     *               {
                     *                 "currency": "example",
                     *                 "count": 1,
                     *                 "amount_minor": 1,
                     *                 "amount": "123.50"
                     *               }
                     *             ]
                     *           }
                     *         ]
                     *       },
                     *       "request_id": "req_0a1b2c3d4e5f6a7b"
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["AnalyticsTimeseries"];
                        request_id: components["schemas"]["RequestId"];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            402: components["responses"]["Error402"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            503: components["responses"]["Error503"];
            "5XX": components["responses"]["Error5XX"];
        };
    };
    analytics_groups: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: number;
                /** @description Number of items to skip, 0 or more. */
                offset?: number;
                /** @description Window in days ending now, 1 to 365. */
                days?: number;
                /** @description Count the clicks of bots and link prefetchers too (recorded apart; excluded by default). */
                include_bots?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of groups. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "group_id": "grp_0a1b2c3d4e5f6a7b",
                     *           "name": "example",
                     *           "publications": 1,
                     *           "sent": 1,
                     *           "failed": 1,
                     *           "delivery_rate": 1,
                     *           "clicks": 1,
                     *           "commissions": [
                     *             {
                     *               "currency": "example",
                     *               "count": 1,
                     *               "amount_minor": 1,
                     *               "amount": "123.50"
                     *             }
                     *           ]
                     *         }
                     *       ],
                     *       "pagination": {
                     *         "total": 1,
                     *         "limit": 1,
                     *         "offset": 1,
                     *         "has_more": true
                     *       },
                     *       "window": {
                     *         "days": 1,
                     *         "time_zone": "example",
                     *         "first_day": "2026-01-15",
                     *         "last_day": "2026-01-15"
                     *       },
                     *       "request_id": "req_0a1b2c3d4e5f6a7b"
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["AnalyticsGroup"][];
                        pagination: components["schemas"]["Pagination"];
                        /** @description the window the rows cover */
                        window: {
                            /** @description the `days` requested */
                            days: number;
                            /** @description the account's time zone (IANA name) whose days these are; `UTC` unless an operator set another */
                            time_zone: string;
                            /**
                             * Format: date
                             * @description the first local day of the window (`days` - 1 days before today)
                             */
                            first_day: string;
                            /**
                             * Format: date
                             * @description the last local day of the window: today, in `time_zone`
                             */
                            last_day: string;
                        };
                        request_id: components["schemas"]["RequestId"];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            402: components["responses"]["Error402"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            503: components["responses"]["Error503"];
            "5XX": components["responses"]["Error5XX"];
        };
    };
    analytics_offers: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: number;
                /** @description Number of items to skip, 0 or more. */
                offset?: number;
                /** @description Window in days ending now, 1 to 365. */
                days?: number;
                /** @description Count the clicks of bots and link prefetchers too (recorded apart; excluded by default). */
                include_bots?: boolean;
                /** @description Order by this count, descending. */
                sort?: "publications" | "clicks" | "commissions";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of offers. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "offer_id": "off_0a1b2c3d4e5f6a7b",
                     *           "title": "example",
                     *           "marketplace": "example",
                     *           "publications": 1,
                     *           "posts": 1,
                     *           "clicks": 1,
                     *           "commissions": 1,
                     *           "revenue": [
                     *             {
                     *               "currency": "example",
                     *               "count": 1,
                     *               "amount_minor": 1,
                     *               "amount": "123.50"
                     *             }
                     *           ]
                     *         }
                     *       ],
                     *       "pagination": {
                     *         "total": 1,
                     *         "limit": 1,
                     *         "offset": 1,
                     *         "has_more": true
                     *       },
                     *       "window": {
                     *         "days": 1,
                     *         "time_zone": "example",
                     *         "first_day": "2026-01-15",
                     *         "last_day": "2026-01-15"
                     *       },
                     *       "request_id": "req_0a1b2c3d4e5f6a7b"
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["AnalyticsOffer"][];
                        pagination: components["schemas"]["Pagination"];
                        /** @description the window the rows cover */
                        window: {
                            /** @description the `days` requested */
                            days: number;
                            /** @description the account's time zone (IANA name) whose days these are; `UTC` unless an operator set another */
                            time_zone: string;
                            /**
                             * Format: date
                             * @description the first local day of the window (`days` - 1 days before today)
                             */
                            first_day: string;
                            /**
                             * Format: date
                             * @description the last local day of the window: today, in `time_zone`
                             */
                            last_day: string;
                        };
                        request_id: components["schemas"]["RequestId"];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            402: components["responses"]["Error402"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            503: components["responses"]["Error503"];
            "5XX": components["responses"]["Error5XX"];
        };
    };
    analytics_sources: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: number;
                /** @description Number of items to skip, 0 or more. */
                offset?: number;
                /** @description Window in days ending now, 1 to 365. */
                days?: number;
                /** @description Count the clicks of bots and link prefetchers too (recorded apart; excluded by default). */
                include_bots?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of marketplaces. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "marketplace": "amazon",
                     *           "publications": 1,
                     *           "clicks": 1,
                     *           "commissions": 1,
                     *           "revenue": [
                     *             {
                     *               "currency": "example",
                     *               "count": 1,
                     *               "amount_minor": 1,
                     *               "amount": "123.50"
                     *             }
                     *           ]
                     *         }
                     *       ],
                     *       "pagination": {
                     *         "total": 1,
                     *         "limit": 1,
                     *         "offset": 1,
                     *         "has_more": true
                     *       },
                     *       "window": {
                     *         "days": 1,
                     *         "time_zone": "example",
                     *         "first_day": "2026-01-15",
                     *         "last_day": "2026-01-15"
                     *       },
                     *       "request_id": "req_0a1b2c3d4e5f6a7b"
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["AnalyticsSource"][];
                        pagination: components["schemas"]["Pagination"];
                        /** @description the window the rows cover */
                        window: {
                            /** @description the `days` requested */
                            days: number;
                            /** @description the account's time zone (IANA name) whose days these are; `UTC` unless an operator set another */
                            time_zone: string;
                            /**
                             * Format: date
                             * @description the first local day of the window (`days` - 1 days before today)
                             */
                            first_day: string;
                            /**
                             * Format: date
                             * @description the last local day of the window: today, in `time_zone`
                             */
                            last_day: string;
                        };
                        request_id: components["schemas"]["RequestId"];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            402: components["responses"]["Error402"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            503: components["responses"]["Error503"];
            "5XX": components["responses"]["Error5XX"];
        };
    };
    analytics_heatmap: {
        parameters: {
            query?: {
                /** @description Window in days ending now, 1 to 365. */
                days?: number;
                /** @description Count the clicks of bots and link prefetchers too (recorded apart; excluded by default). */
                include_bots?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The heatmap. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "days": 1,
                     *         "time_zone": "example",
                     *         "first_day": "2026-01-15",
                     *         "last_day": "2026-01-15",
                     *         "clicks": 1,
                     *         "hours": [
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           },
                     *           {
                     *             "weekday": 1,
                     *             "hour": 1,
                     *             "clicks": 1
                     *           }
                     *         ],
                     *         "elements": [
                     *           {
                     *             "element": "example",
                     *             "clicks": 1
                     *           }
                     *         ],
                     *         "pages": [
                     *           {
                     *             "page_id": "example",
                     *             "clicks": 1
                     *           }
                     *         ]
                     *       },
                     *       "request_id": "req_0a1b2c3d4e5f6a7b"
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["AnalyticsHeatmap"];
                        request_id: components["schemas"]["RequestId"];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            402: components["responses"]["Error402"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            503: components["responses"]["Error503"];
            "5XX": components["responses"]["Error5XX"];
        };
    };
    link_convert: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a POST safe to repeat (a retry after a timeout): the first answer to a key (status and body) is kept 24 hours per credential and returned again for a repeat of the same request, with the header `Idempotent-Replayed: true`. The same key with another method, path or body is a 409 `idempotency_key_reused`; a repeat while the first request is still running is a 409 `idempotency_in_progress`. Server failures (5xx) are not kept: a repeat runs again. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "url": "https://www.amazon.com.br/dp/B0CHX1W1XY"
                 *     }
                 */
                "application/json": components["schemas"]["LinkConvertRequest"];
            };
        };
        responses: {
            /** @description The affiliate link and its tracked short link. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "original_url": "https://shop.example/p/cafeteira",
                     *         "resolved_url": "https://shop.example/p/cafeteira",
                     *         "affiliate_url": "https://shop.example/p/cafeteira",
                     *         "marketplace": "amazon",
                     *         "integration": "int_0a1b2c3d4e5f6a7b",
                     *         "sub_id": "example",
                     *         "link_id": "lnk_0a1b2c3d4e5f6a7b",
                     *         "short_url": "https://shop.example/p/cafeteira",
                     *         "offer_id": "off_0a1b2c3d4e5f6a7b"
                     *       },
                     *       "request_id": "req_0a1b2c3d4e5f6a7b"
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["LinkConversion"];
                        request_id: components["schemas"]["RequestId"];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            402: components["responses"]["Error402"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            503: components["responses"]["Error503"];
            "5XX": components["responses"]["Error5XX"];
        };
    };
    webhooks_list: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: number;
                /** @description Number of items to skip, 0 or more. */
                offset?: number;
                /** @description Only webhooks in this state. */
                state?: components["schemas"]["WebhookState"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of webhooks. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "whk_0a1b2c3d4e5f6a7b",
                     *           "url": "https://shop.example/p/cafeteira",
                     *           "events": [
                     *             "example"
                     *           ],
                     *           "description": "example",
                     *           "state": "enabled",
                     *           "disabled_reason": "manual",
                     *           "last_delivery_at": "2026-01-15T12:00:00Z",
                     *           "created_at": "2026-01-15T12:00:00Z",
                     *           "updated_at": "2026-01-15T12:00:00Z"
                     *         }
                     *       ],
                     *       "pagination": {
                     *         "total": 1,
                     *         "limit": 1,
                     *         "offset": 1,
                     *         "has_more": true
                     *       },
                     *       "request_id": "req_0a1b2c3d4e5f6a7b"
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Webhook"][];
                        pagination: components["schemas"]["Pagination"];
                        request_id: components["schemas"]["RequestId"];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            402: components["responses"]["Error402"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            503: components["responses"]["Error503"];
            "5XX": components["responses"]["Error5XX"];
        };
    };
    webhook_create: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a POST safe to repeat (a retry after a timeout): the first answer to a key (status and body) is kept 24 hours per credential and returned again for a repeat of the same request, with the header `Idempotent-Replayed: true`. The same key with another method, path or body is a 409 `idempotency_key_reused`; a repeat while the first request is still running is a 409 `idempotency_in_progress`. Server failures (5xx) are not kept: a repeat runs again. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "url": "https://shop.example/p/cafeteira",
                 *       "events": [
                 *         "*"
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["WebhookCreate"];
            };
        };
        responses: {
            /** @description The new webhook with its secret. */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "whk_0a1b2c3d4e5f6a7b",
                     *         "url": "https://shop.example/p/cafeteira",
                     *         "events": [
                     *           "example"
                     *         ],
                     *         "description": "example",
                     *         "state": "enabled",
                     *         "disabled_reason": "manual",
                     *         "last_delivery_at": "2026-01-15T12:00:00Z",
                     *         "created_at": "2026-01-15T12:00:00Z",
                     *         "updated_at": "2026-01-15T12:00:00Z",
                     *         "secret": "whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="
                     *       },
                     *       "request_id": "req_0a1b2c3d4e5f6a7b",
                     *       "created": true
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["WebhookWithSecret"];
                        request_id: components["schemas"]["RequestId"];
                        /** @description true when this request created the resource, false when an existing one was returned */
                        created: boolean;
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            402: components["responses"]["Error402"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            503: components["responses"]["Error503"];
            "5XX": components["responses"]["Error5XX"];
        };
    };
    webhook_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the resource. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The webhook. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "whk_0a1b2c3d4e5f6a7b",
                     *         "url": "https://shop.example/p/cafeteira",
                     *         "events": [
                     *           "example"
                     *         ],
                     *         "description": "example",
                     *         "state": "enabled",
                     *         "disabled_reason": "manual",
                     *         "last_delivery_at": "2026-01-15T12:00:00Z",
                     *         "created_at": "2026-01-15T12:00:00Z",
                     *         "updated_at": "2026-01-15T12:00:00Z"
                     *       },
                     *       "request_id": "req_0a1b2c3d4e5f6a7b"
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Webhook"];
                        request_id: components["schemas"]["RequestId"];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            402: components["responses"]["Error402"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            503: components["responses"]["Error503"];
            "5XX": components["responses"]["Error5XX"];
        };
    };
    webhook_delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the resource. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The deletion envelope. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "deleted": true,
                     *       "id": "example",
                     *       "request_id": "req_0a1b2c3d4e5f6a7b"
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookDeletion"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            402: components["responses"]["Error402"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            503: components["responses"]["Error503"];
            "5XX": components["responses"]["Error5XX"];
        };
    };
    webhook_update: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the resource. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                /** @example {} */
                "application/json": components["schemas"]["WebhookUpdate"];
            };
        };
        responses: {
            /** @description The webhook after the change. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "whk_0a1b2c3d4e5f6a7b",
                     *         "url": "https://shop.example/p/cafeteira",
                     *         "events": [
                     *           "example"
                     *         ],
                     *         "description": "example",
                     *         "state": "enabled",
                     *         "disabled_reason": "manual",
                     *         "last_delivery_at": "2026-01-15T12:00:00Z",
                     *         "created_at": "2026-01-15T12:00:00Z",
                     *         "updated_at": "2026-01-15T12:00:00Z"
                     *       },
                     *       "request_id": "req_0a1b2c3d4e5f6a7b"
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Webhook"];
                        request_id: components["schemas"]["RequestId"];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            402: components["responses"]["Error402"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            503: components["responses"]["Error503"];
            "5XX": components["responses"]["Error5XX"];
        };
    };
    webhook_deliveries_list: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: number;
                /** @description Number of items to skip, 0 or more. */
                offset?: number;
                /** @description Only deliveries in this state. */
                state?: "pending" | "retrying" | "succeeded" | "failed";
                /** @description Only deliveries of this event kind. */
                event_kind?: string;
            };
            header?: never;
            path: {
                /** @description Identifier of the resource. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of deliveries. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "example",
                     *           "webhook_id": "whk_0a1b2c3d4e5f6a7b",
                     *           "event_id": "evt_0a1b2c3d4e5f6a7b",
                     *           "event_kind": "offer.approved",
                     *           "state": "pending",
                     *           "attempts": [
                     *             {
                     *               "attempt": 1,
                     *               "at": "2026-01-15T12:00:00Z",
                     *               "http_status": 100,
                     *               "duration_ms": 1,
                     *               "error": "example"
                     *             }
                     *           ],
                     *           "next_attempt_at": "2026-01-15T12:00:00Z",
                     *           "created_at": "2026-01-15T12:00:00Z",
                     *           "updated_at": "2026-01-15T12:00:00Z"
                     *         }
                     *       ],
                     *       "pagination": {
                     *         "total": 1,
                     *         "limit": 1,
                     *         "offset": 1,
                     *         "has_more": true
                     *       },
                     *       "request_id": "req_0a1b2c3d4e5f6a7b"
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["WebhookDelivery"][];
                        pagination: components["schemas"]["Pagination"];
                        request_id: components["schemas"]["RequestId"];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            402: components["responses"]["Error402"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            408: components["responses"]["Error408"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            429: components["responses"]["Error429"];
            431: components["responses"]["Error431"];
            503: components["responses"]["Error503"];
            "5XX": components["responses"]["Error5XX"];
        };
    };
}
