// Found by shaderlab-fuzz (generated programs compiled and checked with glslangValidator). A function defined
// in both branches of `#ifdef USE_FOG ... #else ... #endif` loses its `#else` definition in the emitted GLSL
// (gles100 and gles300): the stage's `#else` variant then calls an undefined function
// (glslang: "'fogged' : no matching overloaded function found"). shaderlab itself reports nothing.
Shader "Regression/BothBranchFunction" {
  SubShader "Default" {
    Pass "P" {
      mat4 renderer_MVPMat;
      struct Attributes { vec4 POSITION; };
#ifdef USE_FOG
      vec4 fogged(vec4 c) {
        return c * 0.5;
      }
#else
      vec4 fogged(vec4 c) {
        return c;
      }
#endif
      void vert(Attributes attr) {
        gl_Position = renderer_MVPMat * attr.POSITION;
      }
      void frag() {
        gl_FragColor = fogged(vec4(1.0));
      }
      VertexShader = vert;
      FragmentShader = frag;
    }
  }
}
