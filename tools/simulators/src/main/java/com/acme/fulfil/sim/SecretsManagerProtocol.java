package com.acme.fulfil.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.StreamSupport;

/**
 * The AWS JSON 1.1 protocol as Secrets Manager speaks it: {@code POST /} with {@code X-Amz-Target:
 * secretsmanager.<Operation>}, a JSON request and response of content type {@code
 * application/x-amz-json-1.1}, errors as {@code {"__type":..., "message":...}} (the SDK reads the
 * error code from {@code __type}), timestamps as epoch seconds. Signatures are not checked.
 */
final class SecretsManagerProtocol implements HttpHandler {

  static final String CONTENT_TYPE = "application/x-amz-json-1.1";
  private static final String TARGET_PREFIX = "secretsmanager.";

  private final SecretStore store;
  private final ObjectMapper json;
  private final JsonReply reply;
  private final AtomicInteger failuresLeft = new AtomicInteger();
  private final Map<String, Integer> requestsByOperation = new ConcurrentHashMap<>();

  SecretsManagerProtocol(SecretStore store, ObjectMapper json) {
    this.store = store;
    this.json = json;
    this.reply = new JsonReply(json, CONTENT_TYPE);
  }

  void failNext(int requests) {
    if (requests < 0) {
      throw new IllegalArgumentException("requests must not be negative, got " + requests);
    }
    failuresLeft.set(requests);
  }

  int requestCount(String operation) {
    return requestsByOperation.getOrDefault(operation, 0);
  }

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      exchange.getResponseHeaders().set("x-amzn-RequestId", UUID.randomUUID().toString());
      byte[] body = exchange.getRequestBody().readAllBytes();
      try {
        String operation = operation(exchange);
        requestsByOperation.merge(operation, 1, Integer::sum);
        if (failuresLeft.getAndUpdate(left -> Math.max(0, left - 1)) > 0) {
          throw new ServiceError("InternalServiceError", 500, "An error occurred on the server side.");
        }
        reply.send(exchange, 200, answer(operation, parse(body)));
      } catch (ServiceError e) {
        ObjectNode error = json.createObjectNode().put("__type", e.type()).put("message", e.getMessage());
        reply.send(exchange, e.status(), error);
      }
    }
  }

  private ObjectNode answer(String operation, JsonNode request) {
    return switch (operation) {
      case "GetSecretValue" -> getSecretValue(request);
      case "PutSecretValue" -> putSecretValue(request);
      case "CreateSecret" -> createSecret(request);
      case "DescribeSecret" -> describeSecret(request);
      default -> throw unknownOperation();
    };
  }

  private ObjectNode getSecretValue(JsonNode request) {
    SecretStore.Secret secret = store.describe(required(request, "SecretId"));
    Optional<String> versionId = optional(request, "VersionId");
    Optional<String> stage = optional(request, "VersionStage");
    Optional<SecretStore.Version> selected = versionId.isPresent()
        ? secret.version(versionId.get()).filter(found -> stage.map(found.stages()::contains).orElse(true))
        : secret.staged(stage.orElse(SecretStore.CURRENT));
    SecretStore.Version version = selected.orElseThrow(() -> new ServiceError("ResourceNotFoundException", 400,
        "Secrets Manager can't find the specified secret value for "
            + versionId.map(id -> "VersionId: " + id).orElse("staging label: " + stage.orElse(SecretStore.CURRENT))));
    ObjectNode response = identity(secret).put("VersionId", version.versionId()).put("SecretString", version.value());
    stages(response.putArray("VersionStages"), version.stages());
    return response.put("CreatedDate", epochSeconds(version.created()));
  }

  private ObjectNode putSecretValue(JsonNode request) {
    String secretId = required(request, "SecretId");
    String value = optional(request, "SecretString").orElseThrow(
        () -> ServiceError.invalidParameter("You must provide either SecretString or SecretBinary."));
    String versionId = optional(request, "ClientRequestToken").orElseGet(() -> UUID.randomUUID().toString());
    JsonNode requestedStages = request.path("VersionStages");
    List<String> stages = requestedStages.isArray()
        ? StreamSupport.stream(requestedStages.spliterator(), false).map(JsonNode::asText).toList()
        : List.of(SecretStore.CURRENT);
    SecretStore.Secret secret = store.put(secretId, value, versionId, stages);
    ObjectNode response = identity(secret).put("VersionId", versionId);
    stages(response.putArray("VersionStages"), secret.version(versionId).orElseThrow().stages());
    return response;
  }

  private ObjectNode createSecret(JsonNode request) {
    Optional<String> value = optional(request, "SecretString");
    String versionId = optional(request, "ClientRequestToken").orElseGet(() -> UUID.randomUUID().toString());
    SecretStore.Secret secret =
        store.create(required(request, "Name"), value, versionId, optional(request, "Description"));
    ObjectNode response = identity(secret);
    value.ifPresent(created -> response.put("VersionId", versionId));
    return response;
  }

  private ObjectNode describeSecret(JsonNode request) {
    SecretStore.Secret secret = store.describe(required(request, "SecretId"));
    ObjectNode response = identity(secret);
    secret.description().ifPresent(description -> response.put("Description", description));
    response.put("LastChangedDate", epochSeconds(secret.lastChanged()));
    response.put("CreatedDate", epochSeconds(secret.created()));
    ObjectNode versions = response.putObject("VersionIdsToStages");
    // Versions without a label are deprecated: AWS leaves them out of this map.
    secret.versions().stream()
        .filter(version -> !version.stages().isEmpty())
        .forEach(version -> stages(versions.putArray(version.versionId()), version.stages()));
    return response;
  }

  private ObjectNode identity(SecretStore.Secret secret) {
    return json.createObjectNode().put("ARN", secret.arn()).put("Name", secret.name());
  }

  private static void stages(ArrayNode array, List<String> stages) {
    stages.forEach(array::add);
  }

  /** Epoch seconds with milliseconds, written plainly (the SDK and botocore read both forms). */
  private static BigDecimal epochSeconds(Instant instant) {
    return BigDecimal.valueOf(instant.toEpochMilli(), 3);
  }

  private static String operation(HttpExchange exchange) {
    String target = exchange.getRequestHeaders().getFirst("X-Amz-Target");
    if (!"POST".equals(exchange.getRequestMethod()) || !"/".equals(exchange.getRequestURI().getPath())
        || target == null || !target.startsWith(TARGET_PREFIX)) {
      throw unknownOperation();
    }
    return target.substring(TARGET_PREFIX.length());
  }

  private JsonNode parse(byte[] body) {
    try {
      JsonNode request = body.length == 0 ? json.createObjectNode() : json.readTree(body);
      if (request == null || !request.isObject()) {
        throw new ServiceError("SerializationException", 400, "The request body must be a JSON object.");
      }
      return request;
    } catch (IOException e) {
      throw new ServiceError("SerializationException", 400, "The request body is not valid JSON.");
    }
  }

  private static String required(JsonNode request, String field) {
    return optional(request, field).orElseThrow(() -> ServiceError.invalidParameter(field + " is required."));
  }

  private static Optional<String> optional(JsonNode request, String field) {
    JsonNode value = request.path(field);
    return value.isTextual() ? Optional.of(value.asText()) : Optional.empty();
  }

  private static ServiceError unknownOperation() {
    return new ServiceError("UnknownOperationException", 400, "This endpoint speaks Secrets Manager only.");
  }
}
