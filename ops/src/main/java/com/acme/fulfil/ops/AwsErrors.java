package com.acme.fulfil.ops;

import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;

/** AWS's errors as on-call needs to read them: what is wrong and what to do, in one sentence. */
final class AwsErrors {
  private AwsErrors() {}

  static OpsException explain(SdkException e, String what) {
    String message = String.valueOf(e.getMessage());
    if (e instanceof SdkClientException && message.contains("credentials")) {
      return new OpsException("no AWS credentials: sign in (aws sso login, or AWS_PROFILE) for the account that runs "
          + what, e);
    }
    if (e instanceof SdkClientException && (message.contains("UnknownHost") || message.contains("Unable to execute HTTP"))) {
      return new OpsException("cannot reach AWS for " + what + ": check AWS_REGION and the network (" + message + ")", e);
    }
    if (e instanceof AwsServiceException service) {
      String code = service.awsErrorDetails() == null ? "" : service.awsErrorDetails().errorCode();
      if (message.contains("does not exist")) {
        return new OpsException(what + " does not exist: deploy it (npx cdk deploy), or pass --stack NAME and the right"
            + " AWS_REGION", e);
      }
      if ("AccessDenied".equals(code) || "AccessDeniedException".equals(code) || service.statusCode() == 403) {
        return new OpsException("AWS refused access to " + what + " (" + code + "): use a role that may read the stack", e);
      }
      if ("ExpiredToken".equals(code) || "ExpiredTokenException".equals(code)) {
        return new OpsException("the AWS session has expired: sign in again", e);
      }
    }
    return new OpsException("AWS failed on " + what + ": " + message, e);
  }
}
