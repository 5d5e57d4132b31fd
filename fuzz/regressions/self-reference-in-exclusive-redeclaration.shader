Shader "Fuzz/Generated" {
  Bool rs0;
  CompareFunction rs1;
  StencilState = {
    WriteMask = 12;
  }
  sampler2D material_Tex2;
  vec4 u_U3[4];
  samplerCube material_Tex4;
  mat3 scene_U5;
  vec2 renderer_U6[1];
  float fn7(vec3 p8) {
#ifdef FUZZ_VARIANT_A
    p8 += ((scene_U5 - mat3(renderer_U6[0].grr, p8, vec4(2.5).ps.tt.sts)) * refract(p8.xzx, mod(p8, p8), floor(renderer_U6[0].xx.t)));
    float l9 = (max(distance(0.0, 7.0), distance(vec3(3.), p8)) + (bool(vec4(0.125)) ? abs(vec2(1.0).g) : (3.5 * 0.5)));
    p8.b = dot(renderer_U6[0].gr.rrr.tpps, vec4((-vec4(l9))));
    for (int i10 = 0; i10 < 3; i10++) {
      p8 *= vec3(l9);
      vec2 l11;
      {
        l9 /= 2.0;
        float l12 = 2.5;
        float l13 = 8.0;
        float l14 = vec4((l13 / 3.0))[1];
        ++l14;
      }
      l11++;
    }
    l9 /= 2.0;
    float l16 = u_U3[3].r;
#else
    p8 = cos((-u_U3[1])).qst;
    const float l15 = (float(ivec3(15).s) + 0.5);
    p8 = (scene_U5 * (true ? renderer_U6[0] : renderer_U6[0]).tts);
    float l16 = (l15 + cos(float(14)));
#endif
    return refract(l16, float(p8), float((ivec2(9) * 5)));
  }
  SubShader "Default" {
    Tags { replacementTag = "Opaque" }
    RenderQueueType queue17;
    RenderQueueType = queue17;
    int renderer_U18[2];
    Pass "P0" {
      Tags { pipelineStage = "DepthOnly" }
      mat4 renderer_MVPMat;
#ifdef FUZZ_VARIANT_A
      const bool material_C19 = bool(ivec2(10).yyx);
#else
      const bool material_C19 = ((bvec4(true)[3] ? bool(vec3(.5)) : bool(ivec2(7))) || (float(vec4(7.5)) != float(bvec3(t((material_C19 ? attr31.POSITION.qqs : renderer_U6[0].xyy), (vec3(K20) / 2.0), (material_C19 ? attr31.POSITION.yxz : vec3(o32.v28))).zrue))));
#endif
      const float K20 = 0.0;
      float fn21();
      float fn23(bool p24
#ifndef FUZZ_VARIANT_A
, in bool p25
#endif
, out vec4 p26);
      float fn21() {
        const vec2 l22 = (vec3(K20) + vec3(2.5)).tst.tp;
        return (K20 / 2.0);
      }
      float fn23(bool p24
#ifndef FUZZ_VARIANT_A
, in bool p25
#endif
, out vec4 p26) {
        p24 = true;
#ifdef FUZZ_VARIANT_A
        return (-ceil(K20));
#else
        return fn21();
#endif
      }
      struct Attributes27 {
        vec4 POSITION;
        vec4 TANGENT;
        vec4 WEIGHTS_0;
      };
      struct Varyings29 {
        float v28;
      };
      Varyings29 vert30(Attributes27 attr31) {
        Varyings29 o32;
        o32.v28 = mix((material_C19 ? attr31.POSITION.qqs : renderer_U6[0].xyy), (vec3(K20) / 2.0), (material_C19 ? attr31.POSITION.yxz : vec3(o32.v28))).z;
        gl_Position = min(vec4((u_U3[3].xwz * vec3(2.5)), vec3(ivec3(0x9B))), attr31.POSITION);
        o32.v28 = (any(bvec3(true)) ? renderer_U6[0] : vec2(material_C19, attr31.WEIGHTS_0.r)).r;
        return o32;
      }
      vec4 frag33(Varyings29 v34) {
        vec3 l35 = (vec3(fn7(vec3(3.0))) * vec3(material_C19, gl_FrontFacing, normalize(renderer_U6[0].ttss.xzyz.t)));
        return refract(vec4(3.0, K20, sin(1.0), 5.5), (false ? (gl_FragCoord + gl_FragCoord) : u_U3[1]), fn21());
      }
      VertexShader = vert30;
      FragmentShader = frag33;
    }
  }
}
