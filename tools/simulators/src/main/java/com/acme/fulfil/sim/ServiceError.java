package com.acme.fulfil.sim;

/** An AWS JSON 1.1 error: {@code {"__type": type, "message": message}} with an HTTP status. */
final class ServiceError extends RuntimeException {

  private final String type;
  private final int status;

  ServiceError(String type, int status, String message) {
    super(message, null, false, false);
    this.type = type;
    this.status = status;
  }

  static ServiceError notFound() {
    return new ServiceError("ResourceNotFoundException", 400, "Secrets Manager can't find the specified secret.");
  }

  static ServiceError invalidParameter(String message) {
    return new ServiceError("InvalidParameterException", 400, message);
  }

  String type() {
    return type;
  }

  int status() {
    return status;
  }
}
