import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { Readable } from 'node:stream';
import {
  assertContentTypeFits,
  assertValidKey,
  checkPresignInput,
  encodeKeyPath,
  type PresignedPut,
  type PresignPutInput,
  type Storage,
  type StoredObject,
  type StoredObjectInfo,
} from './storage.ts';

export interface S3StorageOptions {
  /** A custom endpoint (R2, MinIO…); addressed path-style. Unset means AWS itself. */
  endpoint?: string | undefined;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Where stored objects are read, e.g. IMAGE_BED_URL (a CDN or the bucket's public address). */
  publicBaseUrl: string;
}

const isNotFound = (error: unknown) =>
  error instanceof S3ServiceException &&
  (error.name === 'NotFound' || error.name === 'NoSuchKey' || error.$metadata.httpStatusCode === 404);

async function toBuffer(body: Uint8Array | Readable): Promise<Uint8Array> {
  if (body instanceof Uint8Array) return body;
  // A PUT needs its length up front; media objects are small enough to hold in memory.
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/**
 * Objects in an S3-compatible bucket. Presigned PUTs bind the content type (and the exact length when
 * the client gave it) and only create an object, never replace one (If-None-Match: *); S3 has no "at
 * most N bytes" for a presigned PUT, so without a signed length the size is checked again after the
 * upload (`confirmUpload`, which heads the object and deletes it if too big).
 */
export class S3Storage implements Storage {
  readonly driver = 's3' as const;
  readonly client: S3Client;
  private readonly bucket: string;
  private readonly publicBaseUrl: string;

  constructor(options: S3StorageOptions) {
    this.bucket = options.bucket;
    this.publicBaseUrl = options.publicBaseUrl.replace(/\/+$/, '');
    this.client = new S3Client({
      region: options.region,
      endpoint: options.endpoint,
      // Custom endpoints rarely have a wildcard certificate or DNS for bucket subdomains.
      forcePathStyle: Boolean(options.endpoint),
      credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
      // Newer SDKs add CRC checksums to every request and check them on answers, which presigned
      // browser uploads cannot send and several S3-compatible servers do not understand.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async presignPut(input: PresignPutInput): Promise<PresignedPut> {
    checkPresignInput(input);
    const command = new PutObjectCommand({
      Bucket: this.bucket,
      Key: input.key,
      ContentType: input.contentType,
      ContentLength: input.contentLength,
      // A conditional write: the bucket stores the object only while the key is free (412 once it holds
      // one), so the address cannot replace what it uploaded. Signed, so the client cannot leave it out.
      IfNoneMatch: '*',
    });
    // The presigner leaves Content-Type unsigned unless asked; signing it makes S3 refuse any other type.
    const signableHeaders = new Set(['content-type', 'if-none-match']);
    if (input.contentLength !== undefined) signableHeaders.add('content-length');
    const issuedAt = Date.now();
    const url = await getSignedUrl(this.client, command, { expiresIn: input.expiresInSeconds, signableHeaders });
    return {
      url,
      headers: { 'Content-Type': input.contentType, 'If-None-Match': '*' },
      expiresAt: new Date(issuedAt + input.expiresInSeconds * 1000),
    };
  }

  async put(key: string, body: Uint8Array | Readable, contentType: string): Promise<StoredObjectInfo> {
    assertValidKey(key);
    assertContentTypeFits(key, contentType);
    const bytes = await toBuffer(body);
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: key,
        Body: bytes,
        ContentType: contentType,
        ContentLength: bytes.byteLength,
      }),
    );
    const info = await this.head(key);
    if (!info) throw new Error(`S3 object ${key} is missing right after it was written`);
    return info;
  }

  async get(key: string): Promise<StoredObject | null> {
    assertValidKey(key);
    try {
      const answer = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      if (!(answer.Body instanceof Readable)) throw new Error(`S3 answered ${key} without a readable body`);
      return {
        key,
        size: answer.ContentLength ?? 0,
        contentType: answer.ContentType ?? 'application/octet-stream',
        lastModified: answer.LastModified ?? new Date(0),
        body: answer.Body,
      };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async head(key: string): Promise<StoredObjectInfo | null> {
    assertValidKey(key);
    try {
      const answer = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return {
        key,
        size: answer.ContentLength ?? 0,
        contentType: answer.ContentType ?? 'application/octet-stream',
        lastModified: answer.LastModified ?? new Date(0),
      };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  publicUrl(key: string): string {
    assertValidKey(key);
    return `${this.publicBaseUrl}/${encodeKeyPath(key)}`;
  }

  /** Closes the client's connections (on shutdown). */
  close(): void {
    this.client.destroy();
  }
}
