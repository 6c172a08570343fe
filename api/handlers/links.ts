import { convertLink } from '../../domain/links/service';
import { Handler } from './types';

export const linkConvert: Handler<'link_convert'> = async (req, deps) => ({
  body: { data: await convertLink(deps, req.tenant, req.body) },
});
