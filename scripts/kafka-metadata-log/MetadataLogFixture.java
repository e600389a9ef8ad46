package logtime.fixture;

import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.message.LeaderChangeMessage;
import org.apache.kafka.common.metadata.ConfigRecord;
import org.apache.kafka.common.metadata.RemoveTopicRecord;
import org.apache.kafka.common.metadata.TopicRecord;
import org.apache.kafka.common.protocol.ObjectSerializationCache;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.record.RecordBatch;
import org.apache.kafka.metadata.MetadataRecordSerde;
import org.apache.kafka.raft.internals.BatchBuilder;
import org.apache.kafka.server.common.ApiMessageAndVersion;

import java.io.FileOutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.List;

/**
 * Writes a KRaft metadata log segment with Kafka's own code: the records are Kafka's generated
 * TopicRecord, ConfigRecord and RemoveTopicRecord, framed by MetadataRecordSerde and put into
 * batches by the raft layer's BatchBuilder (what BatchAccumulator uses on the active
 * controller), after a LeaderChange control batch as a newly elected controller writes first.
 * Usage: MetadataLogFixture OUT.log
 */
public final class MetadataLogFixture {
    private static final byte TOPIC = 2;
    private static final byte BROKER = 4;
    static final Uuid CLICKS = Uuid.fromString("Y2xpY2tzQ2xpY2tzQ2xpYw");
    static final Uuid GONE = Uuid.fromString("Z29uZUdvbmVHb25lR29uZQ");
    static final Uuid VIEWS = Uuid.fromString("dmlld3NWaWV3c1ZpZXdzVg");

    private static ApiMessageAndVersion topic(String name, Uuid id) {
        return new ApiMessageAndVersion(new TopicRecord().setName(name).setTopicId(id), (short) 0);
    }

    private static ApiMessageAndVersion config(byte type, String resource, String name, String value) {
        return new ApiMessageAndVersion(new ConfigRecord()
            .setResourceType(type).setResourceName(resource).setName(name).setValue(value), (short) 0);
    }

    private static ApiMessageAndVersion remove(Uuid id) {
        return new ApiMessageAndVersion(new RemoveTopicRecord().setTopicId(id), (short) 0);
    }

    private static ByteBuffer batch(long baseOffset, int epoch, long appendTime, List<ApiMessageAndVersion> records) {
        BatchBuilder<ApiMessageAndVersion> b = new BatchBuilder<>(
            ByteBuffer.allocate(8192), MetadataRecordSerde.INSTANCE, Compression.NONE,
            baseOffset, appendTime, epoch, 8192);
        ObjectSerializationCache cache = new ObjectSerializationCache();
        for (ApiMessageAndVersion r : records) {
            b.appendRecord(r, cache);
        }
        return b.build().buffer();
    }

    public static void main(String[] args) throws Exception {
        long t = 1_795_000_000_000L;
        int epoch = 1;
        ByteBuffer leader = MemoryRecords.withLeaderChangeMessage(0, t, epoch, ByteBuffer.allocate(256),
            new LeaderChangeMessage().setLeaderId(3000).setVoters(List.of())).buffer();
        ByteBuffer first = batch(1, epoch, t + 1000, List.of(
            topic("clicks", CLICKS),
            config(TOPIC, "clicks", "retention.ms", "3600000"),
            config(BROKER, "", "log.retention.ms", "86400000"),
            config(TOPIC, "clicks", "segment.ms", "1000000")));
        ByteBuffer second = batch(5, epoch, t + 2000, List.of(
            config(TOPIC, "clicks", "retention.ms", "7200000"),
            config(TOPIC, "clicks", "segment.ms", null),
            topic("gone", GONE),
            remove(GONE),
            topic("views", VIEWS),
            config(BROKER, "3", "log.cleanup.policy", "compact")));
        try (FileChannel out = new FileOutputStream(args[0]).getChannel()) {
            for (ByteBuffer b : List.of(leader, first, second)) {
                while (b.hasRemaining()) {
                    out.write(b);
                }
            }
        }
        if (RecordBatch.CURRENT_MAGIC_VALUE != 2) {
            throw new IllegalStateException("not v2 batches");
        }
    }
}
