package com.acme.fulfil.partner;

import java.io.IOException;
import java.net.ProtocolException;
import java.util.List;
import okhttp3.Interceptor;
import okhttp3.Response;

/**
 * Lets through only an answer that is the partner's own to the request just written: it echoes the request's
 * {@code X-Request-Id}, once and exactly, and no cache served it. Anything else on the connection (a second answer a
 * proxy ran together with the first, an answer to an earlier request, a cached one) proves nothing about this request,
 * whatever it says: the exchange fails as a lost one, and the connection is closed so that no later request reads what
 * is left on it.
 */
final class AnswerToThisRequest implements Interceptor {

  /** An answer that is not the partner's to this request. */
  static final class NotOurAnswerException extends ProtocolException {
    NotOurAnswerException(String message) {
      super(message);
    }
  }

  @Override
  public Response intercept(Chain chain) throws IOException {
    Response response = chain.proceed(chain.request());
    String why = notOurs(chain.request().header(PartnerClient.REQUEST_ID), response);
    if (why != null) {
      // Before OkHttp can pool it: the bytes after this answer are no answer to anything of ours either.
      chain.connection().socket().close();
      response.close();
      throw new NotOurAnswerException("answer " + why + ": it proves nothing about our request");
    }
    return response;
  }

  private static String notOurs(String requestId, Response response) {
    if (!response.headers(PartnerClient.REQUEST_ID).equals(List.of(requestId))) {
      return "does not echo our X-Request-Id";
    }
    if (response.header("Age") != null || cacheHit(response.headers("Cache-Status"))) {
      return "was served by a cache (Age, or a Cache-Status hit)";
    }
    return null;
  }

  /**
   * RFC 9211: each cache on the way adds a member ({@code edge; hit}, {@code cdn; fwd=uri-miss}); {@code hit} is a
   * boolean parameter, true when bare or {@code ?1}. Age alone would do (RFC 9111: its presence means a cache answered),
   * but a cache need not send it.
   */
  private static boolean cacheHit(List<String> cacheStatus) {
    return cacheStatus.stream().flatMap(field -> List.of(field.split(",")).stream())
        .flatMap(member -> List.of(member.split(";")).stream().skip(1)).map(String::strip)
        .anyMatch(parameter -> parameter.equals("hit") || parameter.equals("hit=?1"));
  }
}
