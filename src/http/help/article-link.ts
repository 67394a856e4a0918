// The public address of a published article, as answers show it: its help center's page.
import type { FastifyRequest } from 'fastify';
import type { ArticleLink } from '../../domain/help-center/answer.service.js';
import { publicOrigin } from '../origin.js';
import { HelpLinks } from './help-render.js';

export const articleLinkFor = (request: FastifyRequest, publicUrl: string | null): ArticleLink =>
  (helpSlug, article) => new HelpLinks(`${publicOrigin(request, publicUrl)}/help/${encodeURIComponent(helpSlug)}`).article(article);
