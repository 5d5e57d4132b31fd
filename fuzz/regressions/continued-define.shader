// Found by fuzz_expand (seed 5, session 10): a `#define` body continued over two lines (`\` at the end of a line)
// was written into the preserving output on one line with the backslash kept before a space, a stray character:
// expanding the output for any variant reported UnexpectedToken at it (the macro need not even be used). Now the
// continuation's backslash is dropped with its line break. The fuzzer's input continued a line inside a word
// (`tex\` / `tureName`), which the lexer then read as two words; it now joins them into one (`textureName`), as
// GLSL ES 3.00 does, and the body is written joined.
Shader "Regression/ContinuedDefine" {
  SubShader "Default" {
    Pass "P" {
      mat4 renderer_MVPMat;
      struct Attributes { vec4 POSITION; };
      #define SHADE(c, k) mix(c, \
        vec4(0.0), k)
      void vert(Attributes a) {
        gl_Position = renderer_MVPMat * a.POSITION;
      }
      void frag() {
        vec4 color = vec4(1.0);
#ifdef USE_SHADE
        color = SHADE(color, 0.5);
#endif
        gl_FragColor = color;
      }
      VertexShader = vert;
      FragmentShader = frag;
    }
  }
}
