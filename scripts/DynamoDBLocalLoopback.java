// Starts DynamoDB Local (DynamoDBLocal.jar on the class path) listening on 127.0.0.1
// only. The jar has no host option (`-help` lists -port, -inMemory, -dbPath, -sharedDb,
// -cors, -delayTransientStatuses, -optimizeDbBeforeStartup, -disableTelemetry): its
// DynamoDBProxyServer makes a Jetty `new Server(port)`, whose connector binds every
// interface. This builds the server exactly as the jar's own main does, from the same
// command line, then sets the connector's host to loopback before it starts listening.
//
// scripts/dynamodb-local.mjs compiles this file once into .local/bin (the JRE's own
// jdk.compiler module: Debian's openjdk-17-jre-headless carries it) and runs it with the
// jar's usual arguments.
import java.lang.reflect.Field;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;

public final class DynamoDBLocalLoopback {
  private DynamoDBLocalLoopback() {}

  public static void main(String[] args) {
    try {
      DynamoDBProxyServer proxy = ServerRunner.createServerFromCommandLineArgs(args);
      Field field = DynamoDBProxyServer.class.getDeclaredField("server");
      field.setAccessible(true);
      Server server = (Server) field.get(proxy);
      Connector[] connectors = server.getConnectors();
      if (connectors.length == 0) throw new IllegalStateException("DynamoDB Local made no connector");
      for (Connector c : connectors) ((ServerConnector) c).setHost("127.0.0.1");
      proxy.start();
    } catch (Exception e) {
      // A busy port or a jar whose internals changed: say so and exit, rather than leave
      // a JVM running that serves nothing (or, worse, listens on every interface).
      System.err.println("DynamoDB Local did not start on 127.0.0.1: " + e);
      Throwable cause = e.getCause();
      if (cause != null) System.err.println("  caused by: " + cause);
      System.exit(1);
    }
  }
}
