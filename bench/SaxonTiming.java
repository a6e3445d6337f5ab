// Times stylesheets on Saxon-HE (the authorities' engine) for the benchmark, in one warm JVM.
// Compiled by bench/saxon-he.ts with javac at bench time; never part of the service.
//
//   java -cp Saxon-HE.jar:DIR SaxonTiming JOBS.tsv
//
// Each job line is `xsl <TAB> xml <TAB> warmups <TAB> runs`. Every run parses the document from
// memory and serializes the SVRL, as the service does on SaxonJS. Prints one line per job:
// `xsl <TAB> xml <TAB> ms,ms,...` or `xsl <TAB> xml <TAB> ERROR message`.
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.nio.file.Files;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.xml.transform.stream.StreamSource;
import net.sf.saxon.s9api.Processor;
import net.sf.saxon.s9api.Serializer;
import net.sf.saxon.s9api.XsltExecutable;
import net.sf.saxon.s9api.XsltTransformer;

public class SaxonTiming {
  public static void main(String[] args) throws Exception {
    Processor processor = new Processor(false);
    Map<String, XsltExecutable> compiled = new HashMap<>();
    List<String> jobs = Files.readAllLines(new File(args[0]).toPath());
    for (String job : jobs) {
      if (job.isBlank()) continue;
      String[] f = job.split("\t");
      String xsl = f[0], xml = f[1];
      try {
        XsltExecutable exe = compiled.get(xsl);
        if (exe == null) {
          exe = processor.newXsltCompiler().compile(new StreamSource(new File(xsl)));
          compiled.put(xsl, exe);
        }
        byte[] bytes = Files.readAllBytes(new File(xml).toPath());
        String systemId = new File(xml).toURI().toString();
        int warmups = Integer.parseInt(f[2]), runs = Integer.parseInt(f[3]);
        StringBuilder times = new StringBuilder();
        for (int i = 0; i < warmups + runs; i++) {
          long started = System.nanoTime();
          XsltTransformer t = exe.load();
          t.setSource(new StreamSource(new ByteArrayInputStream(bytes), systemId));
          Serializer out = processor.newSerializer(new ByteArrayOutputStream());
          t.setDestination(out);
          t.transform();
          double ms = (System.nanoTime() - started) / 1e6;
          if (i >= warmups) times.append(times.length() == 0 ? "" : ",").append(String.format("%.3f", ms));
        }
        System.out.println(xsl + "\t" + xml + "\t" + times);
      } catch (Exception e) {
        System.out.println(xsl + "\t" + xml + "\tERROR " + String.valueOf(e.getMessage()).replace('\n', ' '));
      }
      System.out.flush();
    }
  }
}
