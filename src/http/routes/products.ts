import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { ProductService } from '../../domain/products/product.service.js';
import { publicOrigin } from '../origin.js';
import type { TypedApp } from '../route.js';
import { DataOf, IdParams, ListOf, PageQuery, errorResponses, listBody, pageOf, writeErrors } from '../schemas/common.js';
import { CreateProductBody, IdentitySecret, Product, UpdateProductBody } from '../schemas/product.js';

const ProductParams = IdParams('Product id (UUID)');

export function productRoutes(app: TypedApp, products: ProductService, publicUrl: string | null): void {
  // The base URL of the embed snippet: the public URL, else the origin the request reached.
  const base = (request: FastifyRequest) => publicOrigin(request, publicUrl);

  app.get('/products', {
    schema: {
      operationId: 'listProducts',
      tags: ['Products'],
      summary: 'List products',
      description: 'Products of the workspace, ordered by created_at ascending.',
      querystring: Type.Object(PageQuery),
      response: { 200: ListOf(Product, 'A page of products'), ...errorResponses() },
    },
    handler: async (request) => {
      const page = pageOf(request.query);
      return listBody(await products.list(request.actor, page, base(request)), page);
    },
  });

  app.post('/products', {
    schema: {
      operationId: 'createProduct',
      tags: ['Products'],
      summary: 'Create a product',
      description:
        'Creates a product. slug is derived from name when omitted and gets a -2, -3, … suffix when taken; ' +
        'issue_prefix is generated from the name unless given; widget_key and product_key are generated. ' +
        'A widget_config or domain other than null needs the settings role (an owner or admin, or a key without a member): 403 otherwise.',
      body: CreateProductBody,
      response: { 201: DataOf(Product, 'The created product'), ...writeErrors() },
    },
    handler: async (request, reply) => {
      reply.code(201);
      return { data: await products.create(request.actor, request.body, base(request)) };
    },
  });

  app.get('/products/:id', {
    schema: {
      operationId: 'getProduct',
      tags: ['Products'],
      summary: 'Get a product',
      description: 'One product by id.',
      params: ProductParams,
      response: { 200: DataOf(Product, 'The product'), ...errorResponses(404) },
    },
    handler: async (request) => ({ data: await products.get(request.actor, request.params.id, base(request)) }),
  });

  app.patch('/products/:id', {
    schema: {
      operationId: 'updateProduct',
      tags: ['Products'],
      summary: 'Update a product',
      description:
        'Changes the given fields. A taken slug or issue_prefix is a validation_error (no suffix on update). ' +
        'widget_config replaces the whole object. A changed issue_prefix affects only issues created afterwards. ' +
        'Changing widget_config or domain (the widget\'s security settings) needs the settings role (an owner or admin, or a key ' +
        'without a member): 403 otherwise; sending their stored values back is no change.',
      params: ProductParams,
      body: UpdateProductBody,
      response: { 200: DataOf(Product, 'The updated product'), ...writeErrors(404) },
    },
    config: { ensureExists: (request) => products.ensureExists(request.actor, (request.params as { id: string }).id) },
    handler: async (request) => ({ data: await products.update(request.actor, request.params.id, request.body, base(request)) }),
  });

  app.post('/products/:id/identity-secret', {
    schema: {
      operationId: 'rotateProductIdentitySecret',
      tags: ['Products'],
      summary: '[ext] Create or rotate the product\'s identity secret',
      description:
        'A new identity secret (`ids_` + 40 base62 characters), shown only in this answer. The host site signs its visitors\' identity ' +
        'tokens (JWT, HS256, keyed with the UTF-8 bytes of the whole secret) so the widget knows them (docs/widget.md). The previous ' +
        'secret stops verifying at once and the verified widget sessions it vouched for end. Settings: an owner or admin key, or a key without a member.',
      params: ProductParams,
      response: { 200: DataOf(IdentitySecret, 'The new secret'), ...writeErrors(404) },
    },
    handler: async (request) => ({ data: await products.rotateIdentitySecret(request.actor, request.params.id) }),
  });
}
