import { createCoupon, deactivateCoupon, listCoupons, mustGetCoupon, toCoupon, updateCoupon } from '../../domain/coupons/service';
import { Handler, listReply, pageOf } from './types';

export const couponsList: Handler<'coupons_list'> = async (req, deps) => {
  const page = pageOf(req.query);
  const { status, verification, store, marketplace } = req.query;
  const now = new Date();
  const { items, total } = await listCoupons(
    deps.db,
    req.tenant,
    { status: status ?? 'active', verification: verification ?? 'verified', store, marketplace },
    page,
    now,
  );
  return listReply(
    items.map((c) => toCoupon(c, now)),
    total,
    page,
  );
};

export const couponCreate: Handler<'coupon_create'> = async (req, deps) => {
  const coupon = await createCoupon(deps, req.tenant, req.body);
  return { status: 201, body: { data: toCoupon(coupon), created: true } };
};

export const couponGet: Handler<'coupon_get'> = async (req, deps) => ({
  body: { data: toCoupon(await mustGetCoupon(deps, req.tenant, req.params.id)) },
});

export const couponUpdate: Handler<'coupon_update'> = async (req, deps) => ({
  body: { data: toCoupon(await updateCoupon(deps, req.tenant, req.params.id, req.body)) },
});

export const couponDeactivate: Handler<'coupon_deactivate'> = async (req, deps) => {
  const coupon = await deactivateCoupon(deps, req.tenant, req.params.id);
  return { body: { deleted: true, deactivated: !coupon.active, id: coupon._id } };
};
